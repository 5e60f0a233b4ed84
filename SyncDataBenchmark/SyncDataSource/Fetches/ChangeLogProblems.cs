using Npgsql;

namespace SyncDataSource.Fetches;

/// <summary>
/// The change routes' two failures a caller must act on, answered as what they are instead of as an outage or a 500:
/// a watermark the change log can no longer answer for (the table was truncated after it: 409, run a full sync), and a
/// source database without the change log (501, install sql/change-tracking.sql). Npgsql counts the first's SQLSTATE
/// (55000) as transient, so without this the unreachable-database handler would answer 503 "retry", forever.
/// </summary>
public static class ChangeLogProblems
{
    /// <summary>Where change_log_complete (sql/change-tracking.sql) raises: the truncation guard, by its function's name.</summary>
    private const string TruncationGuard = "change_log_complete(";

    private const string Install =
        "Install it in the source database with `psql -d <source database> -f sql/change-tracking.sql` " +
        "(sql/docker-init/10-source-and-target.sh sets up both databases with it; docs/changes.md).";

    /// <summary>Inside every other handler, so the answer is given before anything takes the error for an outage.</summary>
    public static IApplicationBuilder UseChangeLogProblems(this IApplicationBuilder app) =>
        app.Use(async (http, next) =>
        {
            try
            {
                await next(http);
            }
            catch (Exception ex) when (!http.Response.HasStarted && Describe(ex) is { } problem)
            {
                http.Response.Clear();
                await problem.ExecuteAsync(http);
            }
        });

    /// <summary>The answer for <paramref name="ex"/> (or the PostgreSQL error it wraps), or null when it is not one of the change log's failures.</summary>
    public static IResult? Describe(Exception ex)
    {
        for (Exception? e = ex; e is not null; e = e.InnerException)
        {
            if (e is PostgresException postgres)
            {
                return Describe(postgres);
            }
        }

        return null;
    }

    private static IResult? Describe(PostgresException ex) => ex.SqlState switch
    {
        PostgresErrorCodes.ObjectNotInPrerequisiteState when ex.Where?.Contains(TruncationGuard, StringComparison.Ordinal) == true =>
            TypedResults.Problem(
                $"The watermark is no longer valid: {ex.MessageText}. Retrying cannot help; run a full sync (any fetch that reads the whole table), which stores a new watermark.",
                statusCode: StatusCodes.Status409Conflict, title: "A full sync must run first"),
        PostgresErrorCodes.UndefinedFunction or PostgresErrorCodes.UndefinedTable when NamesTheChangeLog(ex.MessageText) =>
            TypedResults.Problem(
                $"The source database has no change log ({ex.MessageText}), which the change fetches and the deleted keys read. {Install}",
                statusCode: StatusCodes.Status501NotImplemented, title: "Change tracking is not installed"),
        _ => null,
    };

    /// <summary>changed_&lt;table&gt;, deleted_&lt;table&gt; and the tables and functions behind them all carry one of these in their names.</summary>
    private static bool NamesTheChangeLog(string message) =>
        message.Contains("changed_", StringComparison.Ordinal) || message.Contains("deleted_", StringComparison.Ordinal)
        || message.Contains("change_log", StringComparison.Ordinal) || message.Contains("_changes", StringComparison.Ordinal);
}
