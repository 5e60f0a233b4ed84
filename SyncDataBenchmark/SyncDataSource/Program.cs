using Microsoft.EntityFrameworkCore;
using SyncData.Model;
using SyncData.ServiceDefaults;
using SyncDataSource;
using SyncDataSource.Replication;
using SyncDataSource.Runs;
using SyncDataSource.Fetches;

var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddPostgresDataSource("Source", mapTypes: SyncDbContext.MapTypes);
builder.Services.AddDbContextPool<SendableDbContext>((sp, o) => o.UseNpgsql(sp.GetRequiredService<Npgsql.NpgsqlDataSource>(), SyncDbContext.MapTypes));
builder.Services.AddSourceRuns();
builder.Services.AddSingleton<SyncDataSource.Tables.DescribedTables>();
builder.Services.AddSingleton<SyncDataSource.Tables.DescribedRowClasses>();
builder.Services.AddSingleton<SyncDataSource.Tables.DescribedArrowClasses>();
builder.Services.AddBodyCompression();
builder.Services.AddReplication();
builder.AddGrpcStream();
builder.Services.AddOptions<FetchApiOptions>().BindConfiguration(FetchApiOptions.Section).ValidateDataAnnotations().ValidateOnStart();
// A consumer that pauses to commit a batch must not have its stream cut by Kestrel's 240 B/s rule;
// dead consumers are still noticed through the closed connection.
builder.WebHost.ConfigureKestrel(k => k.Limits.MinResponseDataRate = null);

var app = builder.Build();
app.MapDefaultEndpoints();
app.UseSourceRuns();
// Inside the run's request handling: the compressing, the last block included, is part of the request the run measures.
app.UseResponseCompression();
app.UseChangeLogProblems();
app.MapFetchApi();
app.MapGrpcStream();
app.MapRunsApi();
app.MapReplicationApi();
app.Run();

public partial class Program;
