namespace SyncData.Shared;

/// <summary>What a table holds: its row count and content checksum (computed by SyncData.Postgres' SyncTable.ChecksumSql).</summary>
public sealed record TableChecksum(long Rows, string Checksum);
