using System.Globalization;
using System.Text;
using Npgsql;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// Npgsql connection string → libpq keyword/value connection string, so psql, pgcopydb and a subscribing server reach
/// the very database the services use; a Unix socket directory is just another host.
/// </summary>
public static class Conninfo
{
    /// <summary>
    /// The password only <paramref name="withPassword"/>: for a server that connects to the source itself (a
    /// subscription), where no PGPASSWORD reaches it.
    /// </summary>
    public static string From(string npgsqlConnectionString, bool withPassword)
    {
        var b = new NpgsqlConnectionStringBuilder(npgsqlConnectionString);
        var parts = new List<(string Key, string? Value)>
        {
            ("host", b.Host ?? "localhost"),
            ("port", b.Port.ToString(CultureInfo.InvariantCulture)),
            ("dbname", b.Database ?? "postgres"),
            ("user", b.Username),
            ("password", withPassword && !string.IsNullOrEmpty(b.Password) ? b.Password : null),
            ("sslmode", SslMode(b)),
            // A user's database is reached read only (OwnTableSource.ReadOnly: -c default_transaction_read_only=on): the tools too.
            ("options", string.IsNullOrEmpty(b.Options) ? null : b.Options),
        };
        var text = new StringBuilder();
        foreach (var (key, value) in parts.Where(p => p.Value is not null))
        {
            // libpq's quoting: single quotes around the value, backslash before ' and \.
            text.Append(text.Length == 0 ? "" : " ").Append(key).Append("='")
                .Append(value!.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("'", "\\'", StringComparison.Ordinal)).Append('\'');
        }

        return text.ToString();
    }

    private static string? SslMode(NpgsqlConnectionStringBuilder b) => b.SslMode switch
    {
        Npgsql.SslMode.Disable => "disable",
        Npgsql.SslMode.Allow => "allow",
        Npgsql.SslMode.Require => "require",
        Npgsql.SslMode.VerifyCA => "verify-ca",
        Npgsql.SslMode.VerifyFull => "verify-full",
        _ => null,
    };
}
