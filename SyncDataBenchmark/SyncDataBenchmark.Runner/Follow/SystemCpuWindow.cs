using Npgsql;
using SyncDataBenchmark.Runner.Report;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// The whole system's CPU over a drain, from /proc: the .NET services a mechanism uses (by the pids the runner started
/// them with) and every process of the cluster but the runner's own queries and pgbench's (cluster-processes.sql, read
/// at the open and the close: a process present at the close and not at the open counts whole, it began inside the
/// window; one that ended inside it is not seen, which the drain avoids by having none end: nothing else runs then).
/// </summary>
public sealed class SystemCpuWindow
{
    private readonly FollowContext _lab;
    private readonly bool _services;
    private readonly double? _someService;
    private readonly double? _source;
    private readonly Dictionary<int, double> _postgres;

    private SystemCpuWindow(FollowContext lab, bool services, Dictionary<int, double> postgres)
    {
        (_lab, _services, _postgres) = (lab, services, postgres);
        (_someService, _source) = services ? (Cpu(lab.SomeServicePid), Cpu(lab.SyncDataSourcePid)) : (null, null);
    }

    /// <param name="services">Whether the mechanism uses the two services (the native subscription does not: they idle beside it, not counted).</param>
    public static async Task<SystemCpuWindow> OpenAsync(FollowContext lab, bool services, CancellationToken ct) =>
        new(lab, services, await PostgresAsync(lab, ct));

    public async Task<FollowDrainCpu> CloseAsync(CancellationToken ct)
    {
        var postgres = await PostgresAsync(_lab, ct);
        var missing = new List<string>();
        var postgresMs = postgres.Sum(p => p.Value - _postgres.GetValueOrDefault(p.Key));
        if (postgres.Count == 0)
        {
            missing.Add("the cluster's processes are not on this machine");
        }

        double? someService = null, source = null;
        if (_services)
        {
            someService = Spent(_someService, Cpu(_lab.SomeServicePid));
            source = Spent(_source, Cpu(_lab.SyncDataSourcePid));
            if (someService is null || source is null)
            {
                missing.Add("the services were not started by the runner on this machine");
            }
        }

        return new FollowDrainCpu(someService, source, postgres.Count > 0 ? postgresMs : null, postgres.Count, missing.Count > 0 ? string.Join("; ", missing) : null);
    }

    private static double? Spent(double? before, double? after) => before is { } b && after is { } a ? a - b : null;

    private static double? Cpu(int? pid) => pid is { } p ? ProcessCpu.Ms(p) : null;

    /// <summary>Each cluster process's CPU so far, by pid (those on this machine).</summary>
    private static async Task<Dictionary<int, double>> PostgresAsync(FollowContext lab, CancellationToken ct)
    {
        var cpu = new Dictionary<int, double>();
        await using var connection = new NpgsqlConnection(lab.SourceDb);
        await connection.OpenAsync(ct);
        await using var command = new NpgsqlCommand(FollowSql.Read("cluster-processes.sql"), connection) { Parameters = { new() { Value = FollowContext.RunnerApplication } } };
        await using var reader = await command.ExecuteReaderAsync(ct);
        while (await reader.ReadAsync(ct))
        {
            if (ProcessCpu.Ms(reader.GetInt32(0), "postgres") is { } ms)
            {
                cpu[reader.GetInt32(0)] = ms;
            }
        }

        return cpu;
    }
}
