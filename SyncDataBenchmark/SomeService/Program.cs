using Microsoft.Extensions.Options;
using SomeService;
using SomeService.Fetch;
using SomeService.Follow;
using SomeService.Sync;
using SomeService.Tables.Generated;
using SyncData.Model;
using SyncData.ServiceDefaults;

var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddPostgresDataSource("Target", (sp, connection) =>
    TargetConnection.Configure(sp.GetRequiredService<IOptions<SyncOptions>>().Value, connection), SyncDbContext.MapTypes);
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
builder.Services.AddSingleton<GeneratedRowTables>();
builder.Services.AddSingleton<FollowWindow>();

var app = builder.Build();
app.MapDefaultEndpoints();
app.MapSyncApi();
app.MapApproaches();
Followers.MapFollowApi(app);
FollowWindow.Map(app);
app.Run();
public partial class Program;
