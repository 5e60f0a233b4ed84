using SomeService.Fetch;
using SomeService.Insert;
using SomeService.Sync;
using SyncData.ServiceDefaults;
using SyncData.Shared;

var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddUsersDatabase("Target");
builder.Services.AddOptions<SyncOptions>().BindConfiguration(SyncOptions.Section).ValidateDataAnnotations().ValidateOnStart();
builder.Services.AddHttpClient<SourceClient>((sp, http) =>
{
    http.BaseAddress = sp.GetRequiredService<Microsoft.Extensions.Options.IOptions<SyncOptions>>().Value.SourceBaseUrl;
    http.Timeout = Timeout.InfiniteTimeSpan; // streams are guarded per read by SyncOptions.SourceIdleTimeout
});
builder.Services.AddKeyedTransient<IUserSource, EFOffsetPagingSource>(FetchApproach.EFOffsetPaging);
builder.Services.AddKeyedTransient<IUserSource, EFKeysetPagingSource>(FetchApproach.EFKeysetPaging);
builder.Services.AddKeyedTransient<IUserSource, EFStreamSource>(FetchApproach.EFStream);
builder.Services.AddKeyedTransient<IUserSource, NpgsqlCopySource>(FetchApproach.NpgsqlCopy);
builder.Services.AddKeyedSingleton<IUserWriter, EFTypicalWriter>(InsertApproach.EFTypical);
builder.Services.AddKeyedSingleton<IUserWriter, NpgsqlCopyWriter>(InsertApproach.NpgsqlCopy);
builder.Services.AddKeyedSingleton<IUserWriter, NpgsqlCopyRawWriter>(InsertApproach.NpgsqlCopyRaw);
builder.Services.AddSingleton<RunStore>().AddHostedService<RunStoreInitializer>();
builder.Services.AddSingleton<SyncRunner>().AddSingleton<SyncMetrics>();
builder.Services.AddHostedService(sp => sp.GetRequiredService<SyncRunner>());

var app = builder.Build();
app.MapDefaultEndpoints();
app.MapSyncApi();
app.Run();
