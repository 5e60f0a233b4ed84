using Microsoft.EntityFrameworkCore;

namespace SomeService.Insert;

/// <summary>The one dispatch from a row type to its key's type (<see cref="EFMergeKey{TRow, TKey}"/>) for the EF merges.</summary>
internal static class EFMergeKeys
{
    /// <summary>Work written once over the key's type.</summary>
    internal interface IByKey<TRow, TResult>
        where TRow : class
    {
        Task<TResult> RunAsync<TKey>(EFMergeKey<TRow, TKey> key)
            where TKey : notnull, IParsable<TKey>;
    }

    /// <summary>Runs <paramref name="work"/> with <typeparamref name="TRow"/>'s single-column primary key as the model maps it.</summary>
    public static Task<TResult> WithKeyAsync<TRow, TResult>(DbContext db, IByKey<TRow, TResult> work)
        where TRow : class
    {
        var key = db.Model.FindEntityType(typeof(TRow))?.FindPrimaryKey()?.Properties is [var only]
            ? only
            : throw new InvalidOperationException($"The EF merges need {typeof(TRow).Name} mapped with a single-column primary key.");
        // The lab's keys: a new key type adds its line here, and a table with another fails by name, not by a wrong merge.
        return key.ClrType == typeof(Guid) ? work.RunAsync(new EFMergeKey<TRow, Guid>(key))
            : key.ClrType == typeof(long) ? work.RunAsync(new EFMergeKey<TRow, long>(key))
            : throw new InvalidOperationException($"The EF merges know no key of type {key.ClrType.Name} ({typeof(TRow).Name}.{key.Name}).");
    }
}
