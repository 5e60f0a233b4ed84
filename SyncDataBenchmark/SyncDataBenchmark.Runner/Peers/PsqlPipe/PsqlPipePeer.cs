namespace SyncDataBenchmark.Runner;

/// <summary>
/// Two psql processes joined by a kernel pipe: the physical limit of moving the table through one stream. The target
/// truncates and copies in one transaction, as SomeService does.
/// </summary>
public static class PsqlPipePeer
{
    public static PeerDefinition Binary { get; } = Pipe(PeerDefinition.PsqlBinaryKey, "psql binary pipe", "binary");
    public static PeerDefinition Text { get; } = Pipe(PeerDefinition.PsqlTextKey, "psql text pipe", "text");

    private static PeerDefinition Pipe(string key, string name, string format) => PeerFolder.Load("PsqlPipe", key, name,
        $"psql \\copy to stdout ({format})", $"psql truncate + \\copy from stdin ({format}), one transaction", "psql", PeerScopes.TargetStatements,
        new Dictionary<string, string> { ["format"] = format }) with { ReadsSourceOnly = true };
}
