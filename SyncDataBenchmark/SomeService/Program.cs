using Microsoft.Extensions.Options;
using SomeService;
using SomeService.Fetch;
using SomeService.Follow;
using SomeService.Sync;
using SyncData.Model;
using SyncData.ServiceDefaults;

var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
// Every target connection, the run's included, gets Sync:DatabaseCommandTimeoutSeconds as its Command Timeout:
// a library's COPY whose importer we never see (EFBulk, Linq2DB, Linq2DBCopy) times out by the connection's setting, Npgsql's 30 s otherwise.
builder.AddPostgresDataSource("Target", (sp, connection) =>
    connection.CommandTimeout = sp.GetRequiredService<IOptions<SyncOptions>>().Value.DatabaseCommandTimeoutSeconds, SyncDbContext.MapTypes);
builder.Services.AddOptions<SyncOptions>().BindConfiguration(SyncOptions.Section).ValidateDataAnnotations().ValidateOnStart();
builder.Services.AddHttpClient<SourceClient>((sp, http) =>
{
    http.BaseAddress = sp.GetRequiredService<IOptions<SyncOptions>>().Value.SourceBaseUrl;
    http.Timeout = Timeout.InfiniteTimeSpan; // streams are guarded per read by SyncOptions.SourceIdleTimeout
});
builder.Services.AddApproaches();
builder.Services.AddSingleton<RunStore>().AddHostedService<RunStoreInitializer>();
builder.Services.AddSingleton<SyncRunner>().AddSingleton<SyncMetrics>();
builder.Services.AddHostedService(sp => sp.GetRequiredService<SyncRunner>());
builder.Services.AddSingleton<Followers>();
builder.Services.AddSingleton<FollowWindow>();

var app = builder.Build();
app.MapDefaultEndpoints();
app.MapSyncApi();
app.MapApproaches();
Followers.MapFollowApi(app);
FollowWindow.Map(app);
app.Run();
public partial class Program;
