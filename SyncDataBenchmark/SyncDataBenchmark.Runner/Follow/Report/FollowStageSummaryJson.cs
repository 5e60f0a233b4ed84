using System.Text.Json;
using System.Text.Json.Serialization;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// A <see cref="FollowStageSummary"/> in results.json: each stage of <see cref="FollowStage.All"/> under its name + "Ms"
/// (decodeMs … ackMs), the keys the records written before the stages were declared once carry, so those stay readable
/// (--report-from, --readme) and a stage added to the declaration adds its key here by itself.
/// </summary>
internal sealed class FollowStageSummaryJson : JsonConverter<FollowStageSummary>
{
    public override FollowStageSummary Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        using var document = JsonDocument.ParseValue(ref reader);
        var json = document.RootElement;
        return new FollowStageSummary(
            json.GetProperty("transactions").GetInt32(),
            FollowStage.All.ToDictionary(s => s.Name, s => Quantiles(json.GetProperty(Key(s)))),
            json.GetProperty("batches").GetInt32(),
            Quantiles(json.GetProperty("batchTransactions")),
            Quantiles(json.GetProperty("batchChanges")),
            json.GetProperty("dropped").GetInt64())
        {
            ApplyingMs = json.TryGetProperty("applyingMs", out var applying) && applying.ValueKind == JsonValueKind.Number ? applying.GetDouble() : null,
            FirstApplied = json.TryGetProperty("firstApplied", out var first) && first.ValueKind == JsonValueKind.String ? first.GetDateTimeOffset() : null,
        };
    }

    public override void Write(Utf8JsonWriter writer, FollowStageSummary value, JsonSerializerOptions options)
    {
        writer.WriteStartObject();
        writer.WriteNumber("transactions", value.Transactions);
        foreach (var stage in FollowStage.All)
        {
            WriteQuantiles(writer, Key(stage), value[stage]);
        }

        writer.WriteNumber("batches", value.Batches);
        WriteQuantiles(writer, "batchTransactions", value.BatchTransactions);
        WriteQuantiles(writer, "batchChanges", value.BatchChanges);
        writer.WriteNumber("dropped", value.Dropped);
        if (value.ApplyingMs is { } applying)
        {
            writer.WriteNumber("applyingMs", applying);
        }

        if (value.FirstApplied is { } first)
        {
            writer.WriteString("firstApplied", first);
        }

        writer.WriteEndObject();
    }

    private static string Key(FollowStage stage) => stage.Name + "Ms";

    private static StageQuantiles Quantiles(JsonElement json) =>
        new(json.GetProperty("p50").GetDouble(), json.GetProperty("p95").GetDouble(), json.GetProperty("p99").GetDouble());

    private static void WriteQuantiles(Utf8JsonWriter writer, string name, StageQuantiles quantiles)
    {
        writer.WriteStartObject(name);
        writer.WriteNumber("p50", quantiles.P50);
        writer.WriteNumber("p95", quantiles.P95);
        writer.WriteNumber("p99", quantiles.P99);
        writer.WriteEndObject();
    }
}
