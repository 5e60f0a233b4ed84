-- The users table, identical in the source database and in SomeService's target database.
create table if not exists users (
    id         uuid primary key,
    name       text      not null,
    patronymic text      not null,
    surname    text      not null,
    created_at timestamp not null,
    is_active  boolean   not null
);
