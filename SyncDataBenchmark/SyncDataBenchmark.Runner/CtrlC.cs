using System.Runtime.InteropServices;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// Ctrl-C (SIGINT) honoured however the runner was started. A program started in the background of a script inherits
/// SIGINT ignored, and .NET then never installs its handler: Ctrl-C, or SIGINT sent to the process group, was lost and
/// the runner went on into the next runs (issue 62). Restoring the default before the runtime's handler is registered
/// (System.CommandLine's, at the invocation) lets every start of the runner stop on it: cancelled, partial record
/// written, exit 130.
/// </summary>
internal static partial class CtrlC
{
    private const int Sigint = 2;

    public static void Honour()
    {
        if (OperatingSystem.IsLinux() || OperatingSystem.IsMacOS())
        {
            _ = Signal(Sigint, IntPtr.Zero);
        }
    }

    /// <summary>libc's signal(2); IntPtr.Zero is SIG_DFL.</summary>
    [DllImport("libc", EntryPoint = "signal")]
    private static extern IntPtr Signal(int signal, IntPtr handler);
}
