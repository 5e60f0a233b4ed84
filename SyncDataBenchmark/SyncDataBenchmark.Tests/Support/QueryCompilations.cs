using System.Diagnostics;
using System.Linq.Expressions;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Diagnostics;
using Microsoft.EntityFrameworkCore.Query;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// EF Core's own diagnostic events, while subscribed, for the entities and contexts of one namespace (a generated
/// table's, SyncDataSource.Generated…) on one database: the queries EF Core compiled (a miss of its query cache) and
/// the commands it sent. In process, so the count is EF Core's, not an estimate from timings; by database, so a test of
/// another collection running at the same time in the same process is not counted.
/// </summary>
public sealed class QueryCompilations : IObserver<DiagnosticListener>, IObserver<KeyValuePair<string, object?>>, IDisposable
{
    private readonly string _namespace;
    private readonly string _database;
    private readonly IDisposable _all;
    private readonly List<IDisposable> _listeners = [];
    private int _compiled;
    private int _offModel;
    private int _commands;

    public QueryCompilations(string ns, string database)
    {
        _namespace = ns;
        _database = database;
        _all = DiagnosticListener.AllListeners.Subscribe(this);
    }

    /// <summary>Queries over an entity of the namespace EF Core compiled (CoreEventId.QueryCompilationStarting).</summary>
    public int Compiled => Volatile.Read(ref _compiled);

    /// <summary>
    /// The queries compiled and the commands sent not by the SQL the model maps the entity to (ToSqlQuery): a query whose
    /// root is a FromSql one (FromSqlRaw, SQL given with every query and its root built again each time) or whose entity
    /// has no SQL mapped; a command of a context whose model maps an entity without SQL (seen even when an earlier test
    /// of the process compiled the query: EF Core's query cache outlives a context).
    /// </summary>
    public int OffModel => Volatile.Read(ref _offModel);

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
        if (value.Value is QueryExpressionEventData query && Ours(query.Context, query.Expression.Type))
        {
            Interlocked.Increment(ref _compiled);
            if (new QueryRoots().OffModel(query.Expression))
            {
                Interlocked.Increment(ref _offModel);
            }
        }
        else if (value.Value is CommandEventData command && command.Context is { } context && Ours(context, context.GetType()))
        {
            Interlocked.Increment(ref _commands);
            if (context.Model.GetEntityTypes().Any(e => e.GetSqlQuery() is null))
            {
                Interlocked.Increment(ref _offModel);
            }
        }
    }

    /// <summary>The context is on the database, and the type, or the element type of a query over one, is in the namespace.</summary>
    private bool Ours(DbContext? context, Type type) =>
        context?.Database.GetDbConnection().Database == _database
        && ((type.Namespace?.StartsWith(_namespace, StringComparison.Ordinal) ?? false)
            || type.GetGenericArguments().Any(a => a.Namespace?.StartsWith(_namespace, StringComparison.Ordinal) ?? false));

    /// <summary>Whether an expression reads an entity otherwise than by its model's SQL (<see cref="OffModel"/>).</summary>
    private sealed class QueryRoots : ExpressionVisitor
    {
        private bool _offModel;

        public bool OffModel(Expression expression)
        {
            Visit(expression);
            return _offModel;
        }

        protected override Expression VisitExtension(Expression node)
        {
            // FromSqlRaw's root (FromSqlQueryRootExpression, EF Core's internal type) derives from the plain entity root.
            if (node is EntityQueryRootExpression root)
            {
                _offModel |= root.GetType() != typeof(EntityQueryRootExpression) || root.EntityType.GetSqlQuery() is null;
                return node;
            }

            return node.CanReduce ? base.VisitExtension(node) : node;
        }
    }

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
