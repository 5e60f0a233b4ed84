namespace SyncData.Postgres;

/// <summary>
/// A table the lab moves, as both services and the runner must agree on it byte for byte: its name, the column order of
/// every COPY, and its count + checksum query. One instance per table (<see cref="All"/>); a run names its table by
/// <see cref="Name"/>, and everything else about the table is looked up here. A table of a team's own database is one
/// more instance, made from its catalog's description (<see cref="Of"/>) by each side from its own database.
/// </summary>
public sealed record SyncTable(string Name, string Columns, string RowChecksumExpression)
{
    /// <summary>
    /// The original's narrow table. Its checksum: the sum of the first 64 bits of each row's md5 over the row's text
    /// form, computed by PostgreSQL on both sides, so a lost, duplicated or altered row changes it whatever path the data
    /// took. The row constructor's text form quotes every field that needs it, so no value can move a field boundary;
    /// the timestamp enters as its epoch (exact to the microsecond, ±Infinity for ±infinity, negative before Christ),
    /// which unlike to_char cannot lose infinity or the era and does not depend on DateStyle.
    /// </summary>
    public static readonly SyncTable Users = new(
        "users",
        "id, name, patronymic, surname, created_at, is_active",
        "('x' || left(md5(row(id, name, patronymic, surname, extract(epoch from created_at), is_active)::text), 16))::bit(64)::bigint::numeric");

    /// <summary>
    /// The wide table (sql/schema.sql). Its checksum is the users' one over every column; it enters each timestamp and date as its epoch (exact, ±Infinity for
    /// ±infinity, no DateStyle), the jsonb as jsonb's own text (canonical: key order and whitespace normalised, so two
    /// equal documents agree however they were written), numeric as its text (scale kept: 1.50 is not 1.5) and bytea as
    /// hex.
    /// </summary>
    public static readonly SyncTable Orders = new(
        "orders",
        "id, customer_id, status, total, discount, exchange_rate, currency, placed_at, delivery_date, tags, attributes, note, attachment, item_count, is_gift, shipping_address",
        "('x' || left(md5(row(id, customer_id, status, total, discount, exchange_rate, currency, extract(epoch from placed_at), " +
        "extract(epoch from delivery_date), tags, attributes, note, encode(attachment, 'hex'), item_count, is_gift, shipping_address)::text), 16))::bit(64)::bigint::numeric");

    public static IReadOnlyList<SyncTable> All { get; } = [Users, Orders];

    /// <summary>The table a request or run that names none is about (<see cref="SyncData.Shared.SyncRoutes.DefaultTable"/>, where it is named once).</summary>
    public static SyncTable Default { get; } = Find(SyncData.Shared.SyncRoutes.DefaultTable)!;

    /// <summary>The table as SQL names it: <see cref="Name"/> for a built-in table, the quoted schema and name for a described one.</summary>
    public string SqlName { get => _sqlName ?? Name; private init => _sqlName = value; }

    private readonly string? _sqlName;

    /// <summary>What the catalog said of a table the lab did not make (<see cref="Of"/>); null for a built-in table.</summary>
    public Catalog.TableDescription? Description { get; private init; }

    /// <summary>
    /// A table of a team's own database, as its catalog describes it: named by <paramref name="name"/> (as the trigger's
    /// table= and the records give it), its COPY columns every column but the generated, its checksum the description's
    /// over every column (<see cref="Catalog.TableDescription.ChecksumSql"/>).
    /// </summary>
    public static SyncTable Of(string name, Catalog.TableDescription description) =>
        new(name, description.CopyColumnList, description.RowChecksumExpression) { SqlName = description.QualifiedName, Description = description };

    /// <summary>
    /// The built-in table a catalog view (<see cref="CatalogViewOf"/>) shows: whose seed, sentinel row and rows it
    /// shares. Null for every other table.
    /// </summary>
    public SyncTable? Behind { get; private init; }

    /// <summary>
    /// A built-in table moved as the lab moves a table it has no classes for: named schema.name (public.users), so each
    /// service describes it from its own catalog and SomeService writes it through row classes generated from that
    /// description (docs/own-table.md), the same rows as <paramref name="table"/>'s. Run beside <paramref name="table"/>,
    /// it measures what a team's generated classes cost against the lab's written ones. Described by whoever runs it
    /// (<see cref="DescribedAs"/>, keeping <see cref="Behind"/>).
    /// </summary>
    public static SyncTable CatalogViewOf(SyncTable table) => ToDescribe(CatalogViewSchema + "." + table.Name) with { Behind = table };

    /// <summary>
    /// A table known by its name alone until its catalog is read (<see cref="DescribedAs"/>): a catalog view, or a lab
    /// table defined by its folder. Its columns and checksum are empty until then; <see cref="Undescribed"/> says so.
    /// </summary>
    public static SyncTable ToDescribe(string name) => new(name, "", "");

    /// <summary>Named but not yet described: its columns and checksum are not known yet.</summary>
    public bool Undescribed => Description is null && Columns.Length == 0;

    /// <summary>The schema the lab's own tables live in (sql/schema.sql names none).</summary>
    public const string CatalogViewSchema = "public";

    /// <summary>The catalog view <paramref name="name"/> names (public.users, in any letter case), or null.</summary>
    public static SyncTable? FindCatalogView(string? name) =>
        All.Select(CatalogViewOf).FirstOrDefault(v => string.Equals(v.Name, name, StringComparison.OrdinalIgnoreCase));

    /// <summary>This table as <paramref name="description"/> says, a catalog view's <see cref="Behind"/> kept.</summary>
    public SyncTable DescribedAs(Catalog.TableDescription description) => Of(Name, description) with { Behind = Behind };

    public string CopyOutBinary => $"COPY {SqlName} ({Columns}) TO STDOUT (FORMAT binary)";

    public string CopyInBinary => $"COPY {SqlName} ({Columns}) FROM STDIN (FORMAT binary)";

    /// <summary>Row count and an order-independent content checksum (see <see cref="Users"/>).</summary>
    public string ChecksumSql => $"select count(*), coalesce(sum({RowChecksumExpression}), 0)::text from {SqlName}";

    /// <summary>The table named <paramref name="name"/>, in any letter case (as approach names are found), or null.</summary>
    public static SyncTable? Find(string? name) => All.FirstOrDefault(t => string.Equals(t.Name, name, StringComparison.OrdinalIgnoreCase));

    /// <summary>The table named <paramref name="name"/> (<see cref="Find"/>), or an error listing the tables there are.</summary>
    public static SyncTable Named(string name) =>
        Find(name)
        ?? throw new ArgumentException($"'{name}' is not a table of this lab. Tables: {string.Join(", ", All.Select(t => t.Name))}.", nameof(name));
}
