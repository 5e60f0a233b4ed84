-- A team's table without a primary key (OwnTableServiceTests): the COPY relay carries it, a merge is refused for want of a key.
create table "Team Sales".keyless (n integer, note text);
insert into "Team Sales".keyless select g % 7, repeat('y', g % 5) from generate_series(1, 100) as g;
