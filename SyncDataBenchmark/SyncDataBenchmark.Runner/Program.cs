using SyncDataBenchmark.Runner;

var parsed = new BenchOptions().Command(BenchCommand.RunAsync).Parse(args);
if (BenchOptions.Errors(parsed) is { Count: > 0 } errors)
{
    // One line per problem, no help page and no stack trace; 1 is the documented exit code for invalid options.
    foreach (var error in errors)
    {
        Console.Error.WriteLine(error);
    }

    return BenchCommand.RunsFailed;
}

CtrlC.Honour();
// Ctrl+C cancels the action; give it time to write partial results and stop the services and the cluster.
return await parsed.InvokeAsync(new System.CommandLine.InvocationConfiguration { ProcessTerminationTimeout = TimeSpan.FromSeconds(30) });
