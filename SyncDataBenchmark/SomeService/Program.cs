using SomeService;
using SomeService.Fetch;
using SomeService.Sync;
using SyncData.ServiceDefaults;

var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddUsersDatabase("Target");
builder.Services.AddOptions<SyncOptions>().BindConfiguration(SyncOptions.Section).ValidateDataAnnotations().ValidateOnStart();
builder.Services.AddHttpClient<SourceClient>((sp, http) =>
{
    http.BaseAddress = sp.GetRequiredService<Microsoft.Extensions.Options.IOptions<SyncOptions>>().Value.SourceBaseUrl;
    http.Timeout = Timeout.InfiniteTimeSpan; // streams are guarded per read by SyncOptions.SourceIdleTimeout
});
builder.Services.AddApproaches();
builder.Services.AddSingleton<RunStore>().AddHostedService<RunStoreInitializer>();
builder.Services.AddSingleton<SyncRunner>().AddSingleton<SyncMetrics>();
builder.Services.AddHostedService(sp => sp.GetRequiredService<SyncRunner>());

var app = builder.Build();
app.MapDefaultEndpoints();
app.MapSyncApi();
app.Run();
public partial class Program;
