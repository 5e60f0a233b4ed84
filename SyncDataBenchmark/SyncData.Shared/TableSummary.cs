namespace SyncData.Shared;

/// <summary>What a table holds: its row count and content checksum (computed by SyncData.Postgres' UsersTable.SummarySql).</summary>
public sealed record TableSummary(long Rows, string Checksum);
