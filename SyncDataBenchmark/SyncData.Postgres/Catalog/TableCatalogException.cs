namespace SyncData.Postgres.Catalog;

/// <summary>A table the catalog cannot describe for the lab (missing, not a table, a type the target cannot be given), with why.</summary>
public sealed class TableCatalogException(string message) : Exception(message);
