using Spectre.Console;

namespace SyncDataBenchmark.Runner;

public static class Displays
{
    /// <summary>A live Spectre progress display on a terminal; plain lines when stdout is redirected (CI, logs, tests).</summary>
    public static IBenchDisplay ForConsole(int repeat)
    {
        if (!Console.IsOutputRedirected && AnsiConsole.Profile.Capabilities.Interactive)
        {
            return new LiveDisplay(repeat);
        }

        // Spectre decides on colours from TERM, not from redirection: a log file would get escape codes and an
        // 80-column summary table. Plain text, wide.
        AnsiConsole.Console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.No,
        });
        // A log keeps its lines whole at 160; COLUMNS, when set, says the reader's width (e.g. COLUMNS=80).
        AnsiConsole.Profile.Width = int.TryParse(Environment.GetEnvironmentVariable("COLUMNS"), out var columns) && columns > 0 ? columns : 160;
        return new PlainDisplay(repeat);
    }
}
