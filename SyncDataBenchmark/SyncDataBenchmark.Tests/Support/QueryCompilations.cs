using System.Diagnostics;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Diagnostics;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// EF Core's own diagnostic events, while subscribed, for the entities and contexts of one namespace (a generated
/// table's, SyncDataSource.Generated…): the queries EF Core compiled (a miss of its query cache) and the commands it
/// sent. In process, so the count is EF Core's, not an estimate from timings.
/// </summary>
public sealed class QueryCompilations : IObserver<DiagnosticListener>, IObserver<KeyValuePair<string, object?>>, IDisposable
{
    private readonly string _namespace;
    private readonly IDisposable _all;
    private readonly List<IDisposable> _listeners = [];
    private int _compiled;
    private int _commands;

    public QueryCompilations(string ns)
    {
        _namespace = ns;
        _all = DiagnosticListener.AllListeners.Subscribe(this);
    }

    /// <summary>Queries over an entity of the namespace EF Core compiled (CoreEventId.QueryCompilationStarting).</summary>
    public int Compiled => Volatile.Read(ref _compiled);

    /// <summary>Commands a context of the namespace sent (RelationalEventId.CommandExecuting): a page's query, and its snapshot's.</summary>
    public int Commands => Volatile.Read(ref _commands);

    public void OnNext(DiagnosticListener value)
    {
        if (value.Name == DbLoggerCategory.Name)
        {
            lock (_listeners)
            {
                _listeners.Add(value.Subscribe(this, name =>
                    name == CoreEventId.QueryCompilationStarting.Name || name == RelationalEventId.CommandExecuting.Name));
            }
        }
    }

    public void OnNext(KeyValuePair<string, object?> value)
    {
        if (value.Value is QueryExpressionEventData query && Ours(query.Expression.Type))
        {
            Interlocked.Increment(ref _compiled);
        }
        else if (value.Value is CommandEventData command && command.Context is { } context && Ours(context.GetType()))
        {
            Interlocked.Increment(ref _commands);
        }
    }

    /// <summary>The type, or the element type of a query over one, is in the namespace.</summary>
    private bool Ours(Type type) =>
        (type.Namespace?.StartsWith(_namespace, StringComparison.Ordinal) ?? false)
        || type.GetGenericArguments().Any(a => a.Namespace?.StartsWith(_namespace, StringComparison.Ordinal) ?? false);

    public void OnCompleted()
    {
    }

    public void OnError(Exception error)
    {
    }

    public void Dispose()
    {
        _all.Dispose();
        lock (_listeners)
        {
            _listeners.ForEach(l => l.Dispose());
        }
    }
}
