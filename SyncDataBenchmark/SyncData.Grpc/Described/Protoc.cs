using System.Diagnostics;

namespace SyncData.Grpc.Described;

/// <summary>
/// protoc, the Protocol Buffers compiler Grpc.Tools ships (copied beside the services at build, SyncData.Grpc.csproj),
/// run on a generated .proto as a team's build runs it on theirs: its C# is the messages' classes, compiled with Roslyn
/// beside the code that fills and reads them. Only linux-x64's binary is copied: elsewhere a described table's GrpcStream
/// fails naming the missing file.
/// </summary>
public static class Protoc
{
    /// <summary>Where the build put protoc.</summary>
    public static string Path { get; } = System.IO.Path.Combine(AppContext.BaseDirectory, "protoc", "linux_x64", "protoc");

    /// <summary>protoc's C# for <paramref name="proto"/>.</summary>
    public static string CSharp(string proto)
    {
        if (!File.Exists(Path))
        {
            throw new InvalidOperationException($"protoc is not at {Path}: GrpcStream generates a described table's messages with the protoc Grpc.Tools ships for linux-x64.");
        }

        var work = Directory.CreateTempSubdirectory("syncdata-protoc-");
        try
        {
            File.WriteAllText(System.IO.Path.Combine(work.FullName, "described.proto"), proto);
            var start = new ProcessStartInfo(Path) { RedirectStandardError = true, RedirectStandardOutput = true, WorkingDirectory = work.FullName };
            foreach (var argument in new[] { "--proto_path=.", "--csharp_out=.", "described.proto" })
            {
                start.ArgumentList.Add(argument);
            }

            using var process = Process.Start(start)!;
            var errors = process.StandardError.ReadToEndAsync();
            process.StandardOutput.ReadToEnd();
            process.WaitForExit();
            return process.ExitCode == 0
                ? File.ReadAllText(System.IO.Path.Combine(work.FullName, "Described.cs"))
                : throw new InvalidOperationException($"protoc failed on the generated .proto ({process.ExitCode}): {errors.Result}\n{proto}");
        }
        finally
        {
            work.Delete(recursive: true);
        }
    }
}
