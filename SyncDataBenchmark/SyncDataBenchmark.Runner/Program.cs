using SyncDataBenchmark.Runner;

var parsed = new BenchOptions().Command(BenchCommand.RunAsync).Parse(args);
if (parsed.Errors.Count > 0)
{
    // One line per problem, no help page and no stack trace; 1 is the documented exit code for invalid options.
    foreach (var error in parsed.Errors)
    {
        Console.Error.WriteLine(error.Message);
    }

    return BenchCommand.RunsFailed;
}

// Ctrl+C cancels the action; give it time to write partial results and stop the services and the cluster.
return await parsed.InvokeAsync(new System.CommandLine.InvocationConfiguration { ProcessTerminationTimeout = TimeSpan.FromSeconds(30) });
