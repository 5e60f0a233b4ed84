using System.Linq.Expressions;
using System.Runtime.CompilerServices;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata;

namespace SomeService.Insert;

/// <summary>
/// A primary key matched on every column (a composite key, or one column of a type the lab's tables do not key by): a
/// row's key is its values in key order (<see cref="EFKeyValues"/>); the rows holding some keys are found by
/// <c>(a = @a0 and b = @b0) or (a = @a1 and b = @b1) or …</c>, the predicate EF Core builds for a composite key's lookups,
/// each value a parameter, so a batch's statement is one shape the query cache keeps.
/// </summary>
internal sealed class EFCompositeKey<TRow>(IReadOnlyList<IProperty> key) : EFMergeKey<TRow, EFKeyValues>
    where TRow : class
{
    private readonly IClrPropertyGetter[] _getters = [.. key.Select(p => p.GetGetter())];

    public override EFKeyValues Of(TRow row) => new([.. _getters.Select(g => g.GetClrValue(row)!)]);

    public override string Column => $"({string.Join(", ", key.Select(p => p.GetColumnName()))})";

    public override object? OnlyValue(EFKeyValues value) => value.Values is [var only] ? only : null;

    public override IQueryable<TRow> Having(IQueryable<TRow> rows, List<EFKeyValues> keys)
    {
        if (keys.Count == 0)
        {
            return rows.Where(_ => false);
        }

        var row = Expression.Parameter(typeof(TRow), "r");
        var matches = keys.Select(k => (Expression)key.Select((p, i) => Expression.Equal(Property(row, p), Captured(k.Values[i], p.ClrType))).Aggregate(Expression.AndAlso)).ToList();
        return rows.Where(Expression.Lambda<Func<TRow, bool>>(Balanced(matches, 0, matches.Count), row));
    }

    protected override async Task<List<EFKeyValues>> ReadAllAsync(DbContext db, CancellationToken ct)
    {
        // Only the key's columns are read: new object[] { r.A, r.B } is projected on the client from those columns.
        var row = Expression.Parameter(typeof(TRow), "r");
        var values = Expression.NewArrayInit(typeof(object), key.Select(p => Expression.Convert(Property(row, p), typeof(object))));
        var read = await db.Set<TRow>().AsNoTracking().Select(Expression.Lambda<Func<TRow, object[]>>(values, row)).ToListAsync(ct);
        return [.. read.Select(v => new EFKeyValues(v))];
    }

    protected override List<EFKeyValues> Parse(IReadOnlyList<string> keys) =>
        throw new InvalidOperationException($"A change fetch reports deleted keys as one column's text; {typeof(TRow).Name}'s key {Column} is not one of the lab's (a change fetch serves the lab's tables only).");

    /// <summary>EF.Property&lt;T&gt;(r, name), as a typed lookup reads it.</summary>
    private static MethodCallExpression Property(ParameterExpression row, IProperty property) =>
        Expression.Call(typeof(EF), nameof(EF.Property), [property.ClrType], row, Expression.Constant(property.Name));

    /// <summary>A value as a captured local reads: the field of a constant holder, which EF Core sends as a parameter, not a literal.</summary>
    private static MemberExpression Captured(object value, Type type)
    {
        var box = (IStrongBox)Activator.CreateInstance(typeof(StrongBox<>).MakeGenericType(type), value)!;
        return Expression.Field(Expression.Constant(box), nameof(StrongBox<object>.Value));
    }

    /// <summary>The ORs of <paramref name="matches"/> as a balanced tree: a batch's thousand keys nest ten deep, not a thousand (EF's visitors recurse).</summary>
    private static Expression Balanced(List<Expression> matches, int from, int count) =>
        count == 1 ? matches[from] : Expression.OrElse(Balanced(matches, from, count / 2), Balanced(matches, from + (count / 2), count - (count / 2)));
}
