using System.Diagnostics;
using Microsoft.Extensions.Options;
using Npgsql;
using SomeService.Fetch;
using SomeService.Insert;
using SyncData.Postgres;
using SyncData.ServiceDefaults;
using SyncData.Shared;

namespace SomeService.Sync;

/// <summary>The target database failed while rows were being written (not the source).</summary>
public sealed class TargetWriteException(string message, Exception inner) : Exception(message, inner);
