namespace SyncData.Harness;

/// <summary>How a <see cref="ChildProcess"/> is started and what of its output is kept.</summary>
public sealed record ChildProcessOptions
{
    public string? WorkingDirectory { get; init; }

    /// <summary>Variables set for the child on top of this process's environment; a null value removes an inherited one.</summary>
    public IReadOnlyDictionary<string, string?>? Environment { get; init; }

    /// <summary>Runs the program as this system user (through `runuser -u USER --`), e.g. PostgreSQL's tools as root.</summary>
    public string? AsUser { get; init; }

    /// <summary>
    /// Runs the program inside this network namespace (through `ip netns exec NS`, which execs: the process keeps its
    /// pid, so killing and measuring it by pid still work).
    /// </summary>
    public string? Namespace { get; init; }

    /// <summary>Called with each line of standard output and standard error as it arrives (on a thread-pool thread).</summary>
    public Action<string>? OnLine { get; init; }

    /// <summary>How many of the last lines (both streams, interleaved) <see cref="ChildProcess.RecentOutput"/> keeps.</summary>
    public int TailLines { get; init; } = 500;

    /// <summary>Keeps every line of each stream too, for callers that parse the output rather than quote its end.</summary>
    public bool KeepAllOutput { get; init; }
}
