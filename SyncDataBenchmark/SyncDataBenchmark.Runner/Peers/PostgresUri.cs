using System.Globalization;
using System.Text;
using Npgsql;

namespace SyncDataBenchmark.Runner;

/// <summary>Npgsql connection string → libpq URI, so psql and pgcopydb reach the very database the services use.</summary>
public static class PostgresUri
{
    public static string From(string npgsqlConnectionString, out string? password)
    {
        var b = new NpgsqlConnectionStringBuilder(npgsqlConnectionString);
        password = string.IsNullOrEmpty(b.Password) ? null : b.Password;
        var host = b.Host ?? "localhost";
        var query = new List<string>();
        string authority;
        if (host.StartsWith('/'))
        {
            // A Unix socket directory cannot be a URI authority; libpq takes it as the host parameter.
            authority = "";
            query.Add("host=" + Uri.EscapeDataString(host));
            query.Add("port=" + b.Port);
        }
        else
        {
            authority = (host.Contains(':') ? $"[{host}]" : host) + ":" + b.Port;
        }

        if (!string.IsNullOrEmpty(b.Username))
        {
            authority = Uri.EscapeDataString(b.Username) + "@" + authority;
        }

        if (SslMode(b) is { } sslMode)
        {
            query.Add("sslmode=" + sslMode);
        }

        var uri = $"postgresql://{authority}/{Uri.EscapeDataString(b.Database ?? "postgres")}";
        return query.Count == 0 ? uri : uri + "?" + string.Join('&', query);
    }

    /// <summary>
    /// A libpq keyword/value connection string, password included: for a server that connects to the source itself
    /// (a subscription), where no PGPASSWORD reaches it.
    /// </summary>
    public static string Conninfo(string npgsqlConnectionString)
    {
        var b = new NpgsqlConnectionStringBuilder(npgsqlConnectionString);
        var parts = new List<(string Key, string? Value)>
        {
            ("host", b.Host ?? "localhost"),
            ("port", b.Port.ToString(CultureInfo.InvariantCulture)),
            ("dbname", b.Database ?? "postgres"),
            ("user", b.Username),
            ("password", string.IsNullOrEmpty(b.Password) ? null : b.Password),
            ("sslmode", SslMode(b)),
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
