using Microsoft.EntityFrameworkCore;

namespace SomeService.Insert;

/// <summary>The one dispatch from a row type to its key (<see cref="EFMergeKey{TRow, TKey}"/>) for the EF merges.</summary>
internal static class EFMergeKeys
{
    /// <summary>Work written once over the key's type.</summary>
    internal interface IByKey<TRow, TResult>
        where TRow : class
    {
        Task<TResult> RunAsync<TKey>(EFMergeKey<TRow, TKey> key)
            where TKey : notnull;
    }

    /// <summary>
    /// Runs <paramref name="work"/> with <typeparamref name="TRow"/>'s primary key as the model maps it: one column of the
    /// lab's key types (uuid, bigint) typed, any other key (composite, or one column of another type) on all its columns.
    /// </summary>
    public static Task<TResult> WithKeyAsync<TRow, TResult>(DbContext db, IByKey<TRow, TResult> work)
        where TRow : class
    {
        var key = db.Model.FindEntityType(typeof(TRow))?.FindPrimaryKey()?.Properties
            ?? throw new InvalidOperationException($"The EF merges need {typeof(TRow).Name} mapped with a primary key.");
        return key switch
        {
            [var only] when only.ClrType == typeof(Guid) => work.RunAsync(new EFColumnKey<TRow, Guid>(only)),
            [var only] when only.ClrType == typeof(long) => work.RunAsync(new EFColumnKey<TRow, long>(only)),
            _ => work.RunAsync(new EFCompositeKey<TRow>(key)),
        };
    }
}
