using System.Text.Json;
using System.Text.Json.Serialization;

namespace SyncData.Shared;

/// <summary>Source-generated JSON metadata: no reflection on the hot path of either service.</summary>
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web, UseStringEnumConverter = true)]
[JsonSerializable(typeof(User))]
[JsonSerializable(typeof(List<User>))]
[JsonSerializable(typeof(IAsyncEnumerable<User>))]
[JsonSerializable(typeof(Order))]
[JsonSerializable(typeof(List<Order>))]
[JsonSerializable(typeof(IAsyncEnumerable<Order>))]
[JsonSerializable(typeof(TableChecksum))]
[JsonSerializable(typeof(List<string>))]
[JsonSerializable(typeof(SourceRunEnd))]
[JsonSerializable(typeof(SourceSnapshot))]
[JsonSerializable(typeof(RuntimeSettings))]
[JsonSerializable(typeof(RunResult))]
[JsonSerializable(typeof(List<RunResult>))]
[JsonSerializable(typeof(List<ApproachInfo>))]
[JsonSerializable(typeof(ChangeFrame))]
[JsonSerializable(typeof(FollowStatus))]
[JsonSerializable(typeof(FollowWindowFigures))]
[JsonSerializable(typeof(FollowStages))]
public sealed partial class SyncJsonContext : JsonSerializerContext;
