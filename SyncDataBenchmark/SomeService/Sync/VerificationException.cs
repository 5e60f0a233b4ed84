using System.Diagnostics;
using Microsoft.Extensions.Options;
using Npgsql;
using SomeService.Fetch;
using SomeService.Insert;
using SyncData.Postgres;
using SyncData.ServiceDefaults;
using SyncData.Shared;

namespace SomeService.Sync;

public sealed class VerificationException(string message) : Exception(message);
