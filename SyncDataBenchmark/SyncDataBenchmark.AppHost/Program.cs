using SyncDataBenchmark.AppHost;

// The pair to look at, not to measure (docs/observability.md, "The pair on .NET Aspire"): PostgreSQL seeded as the
// compose stack is, both services on their usual ports, Prometheus scraping them, and the Aspire dashboard.
var builder = DistributedApplication.CreateBuilder(args);
var lab = LabSettings.From(builder.Configuration, builder.AppHostDirectory);
var (source, target, postgres) = builder.AddLabDatabases(lab);

var syncDataSource = builder.AddLabService<Projects.SyncDataSource>("SyncDataSource", lab.SyncDataSourcePort)
    .WithReference(source).WaitForDatabase(postgres);
var someService = builder.AddLabService<Projects.SomeService>("SomeService", lab.SomeServicePort)
    .WithReference(target).WaitForDatabase(postgres)
    .WithEnvironment("Sync__SourceBaseUrl", syncDataSource.GetEndpoint("http"))
    .WaitFor(syncDataSource);
builder.AddLabPrometheus(lab).WaitFor(syncDataSource).WaitFor(someService);

builder.Build().Run();
