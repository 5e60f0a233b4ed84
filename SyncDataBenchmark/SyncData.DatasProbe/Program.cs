using System.Diagnostics;
using System.Text.Json;
using SyncData.DatasProbe;
using SyncData.Measurement;

// Each window: the service's own measurement window around a known allocation pattern (AllocationWindows), until the
// heap count has changed and the exact figure was reported twice each, or the time is up.
var deadline = Stopwatch.StartNew();
var limit = TimeSpan.FromSeconds(args.Length > 0 ? int.Parse(args[0], System.Globalization.CultureInfo.InvariantCulture) : 90);
using var window = new RuntimeWindow();
Console.WriteLine(JsonSerializer.Serialize(new { settings = window.Settings }));
var changed = 0;
var exactReported = 0;
for (var i = 0; deadline.Elapsed < limit && (changed < 2 || exactReported < 2); i++)
{
    var (heapCountChanged, exact) = AllocationWindows.Measure(window, i);
    changed += heapCountChanged ? 1 : 0;
    exactReported += exact ? 1 : 0;
}
