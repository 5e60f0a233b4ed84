-- A team's tables of the types the generator maps beyond the lab's own (GeneratedRowTableTests). "Texts": xml and citext
-- (contrib's extension, which the target is given: TableCatalog), strings every fetch and writer carries. "Odd Types": macaddr, macaddr8, point, circle, inet and
-- cidr in the types EF Core's Npgsql provider maps them to (PhysicalAddress, NpgsqlPoint, NpgsqlCircle, NpgsqlInet,
-- IPNetwork), which only NpgsqlCopy's decoder reads so far. Awkward values: an XML declaration, CDATA, an entity, empty
-- content; all-zero and all-one addresses; NaN, Infinity and -0 in a point; a radius of 0 and
-- of 1e-300; an inet with a netmask, IPv6 and an IPv4-mapped IPv6 address; cidr /0 and /128; NULL in every column.
create extension if not exists citext;
create table "Team Sales"."Texts" (id integer primary key, doc xml, name text not null, tag citext);
insert into "Team Sales"."Texts" values
    (1, '<a x="1">tab&#9;here &amp; Zoë</a>', 'Zoë', 'Zoë'),
    (2, '', 'ABC', 'ABC'),
    (3, null, 'abc', null),
    (4, '<?xml version="1.0"?><r><![CDATA[<x>]]></r>', '  spaced  ', '  MiXeD ß  ');
create table "Team Sales"."Odd Types" (id integer primary key, mac macaddr, mac8 macaddr8, p point, c circle, ip inet, net cidr);
insert into "Team Sales"."Odd Types" values
    (1, '08:00:2b:01:02:03', '08:00:2b:01:02:03:04:05', '(1.5,-2)', '<(0,0),1>', '192.168.0.1/24', '10.0.0.0/8'),
    (2, '00:00:00:00:00:00', 'ff:ff:ff:ff:ff:ff:ff:ff', '(NaN,Infinity)', '<(1e300,-1e300),0>', '::ffff:1.2.3.4', '0.0.0.0/0'),
    (3, null, null, null, null, null, null),
    (4, 'ff:ff:ff:ff:ff:ff', '00:00:00:00:00:00:00:00', '(-0,0)', '<(-1.5,2.25),1e-300>', '2001:db8::1/64', '2001:db8::1/128');
