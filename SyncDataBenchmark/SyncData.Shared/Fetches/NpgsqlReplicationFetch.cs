namespace SyncData.Shared.Fetches;

/// <summary>
/// NpgsqlReplication: the table kept current by logical decoding. SyncDataSource creates a pgoutput slot and a
/// publication for the table (Npgsql's LogicalReplicationConnection), sends a first copy read in the snapshot the slot
/// exported, then every committed change, as newline-delimited <see cref="ChangeFrame"/>s on one long HTTP/2 response;
/// SomeService applies them in batched transactions, stores the source LSN beside the rows and acknowledges it
/// (<see cref="ReplicationRoutes.Ack"/>), and only that LSN is confirmed to PostgreSQL. Started through SomeService's
/// follow API, never paired in a run (<see cref="ApproachAttribute.Follows"/>): docs/replication.md.
/// </summary>
[Approach(ApproachKind.Fetch, "NpgsqlReplication", Route = "users/replication", Changes = true, Follows = true)]
public sealed class NpgsqlReplicationFetch : IFetch;
