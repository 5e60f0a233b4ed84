using System.Diagnostics;
using OpenTelemetry;

namespace SyncData.ServiceDefaults;

/// <summary>
/// Tags every span started under a run (its baggage, inherited from the span that started the run or received over
/// HTTP) with the run's id: baggage alone is not exported, and the Npgsql and HttpClient spans are not ours to tag.
/// </summary>
internal sealed class RunIdSpanProcessor : BaseProcessor<Activity>
{
    public override void OnStart(Activity data)
    {
        if (data.GetBaggageItem(RunTelemetry.RunIdKey) is { } id)
        {
            data.SetTag(RunTelemetry.RunIdKey, id);
        }
    }
}
