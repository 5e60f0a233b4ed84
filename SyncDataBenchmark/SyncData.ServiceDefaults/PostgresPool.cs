using System.Net.Sockets;
using Npgsql;

namespace SyncData.ServiceDefaults;

/// <summary>
/// Npgsql does not check pooled connections on checkout, and a server restart does not clear the pool
/// (npgsql/npgsql#5073): every idle connection fails once. When an operation fails because the connection died,
/// clear the pool so the next one opens a fresh connection instead of failing too.
/// </summary>
public static class PostgresPool
{
    public static bool IsConnectionFailure(Exception ex) =>
        ex is NpgsqlException npgsql
        && (npgsql.IsTransient
            || npgsql is PostgresException { SqlState: PostgresErrorCodes.AdminShutdown or PostgresErrorCodes.CrashShutdown or PostgresErrorCodes.CannotConnectNow }
            || npgsql.InnerException is IOException or SocketException or EndOfStreamException);

    /// <summary>Whether <paramref name="ex"/> (or what it wraps) says the database cannot be reached right now.</summary>
    public static bool IsDatabaseUnreachable(Exception ex)
    {
        for (Exception? e = ex; e is not null; e = e.InnerException)
        {
            if (IsConnectionFailure(e) || e is NpgsqlException { InnerException: TimeoutException or SocketException })
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Clears the pool if <paramref name="ex"/> or any exception it wraps is a dead connection.</summary>
    /// <returns>Whether the pool was cleared.</returns>
    public static bool ClearIfConnectionFailure(this NpgsqlDataSource dataSource, Exception ex)
    {
        for (Exception? e = ex; e is not null; e = e.InnerException)
        {
            if (IsConnectionFailure(e))
            {
                dataSource.Clear();
                return true;
            }
        }

        return false;
    }
}
