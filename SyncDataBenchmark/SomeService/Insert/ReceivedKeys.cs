using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata;

namespace SomeService.Insert;

/// <summary>
/// The key of every row a merge received, column by column in the order of <see cref="MergeSql.KeyColumns"/>, each
/// value as the row class holds it (read through the EF model's property getters): what a whole-table merge without a
/// staging table (Linq2DBMerge) deletes the target's other rows by, matched on the whole key.
/// </summary>
internal sealed class ReceivedKeys<TRow>
    where TRow : class
{
    private readonly IProperty[] _key;
    private readonly IClrPropertyGetter[] _getters;
    private readonly List<object>[] _values;

    public ReceivedKeys(DbContext db, IReadOnlyList<string> keyColumns)
    {
        var properties = db.Model.FindEntityType(typeof(TRow))?.GetProperties().ToDictionary(p => p.GetColumnName(), StringComparer.Ordinal)
            ?? new Dictionary<string, IProperty>(StringComparer.Ordinal);
        _key = [.. keyColumns.Select(c => properties.TryGetValue(c, out var p) ? p
            : throw new InvalidOperationException($"{typeof(TRow).Name} maps no property to the key column {c}."))];
        _getters = [.. _key.Select(p => p.GetGetter())];
        _values = [.. _key.Select(_ => new List<object>())];
    }

    public void Add(TRow row)
    {
        for (var i = 0; i < _getters.Length; i++)
        {
            _values[i].Add(_getters[i].GetClrValue(row)!);
        }
    }

    /// <summary>Each key column's values as an array of its property's type, which Npgsql sends as that type's array.</summary>
    public IReadOnlyList<Array> Columns()
    {
        var columns = new Array[_key.Length];
        for (var i = 0; i < _key.Length; i++)
        {
            columns[i] = Array.CreateInstance(_key[i].ClrType, _values[i].Count);
            for (var j = 0; j < _values[i].Count; j++)
            {
                columns[i].SetValue(_values[i][j], j);
            }
        }

        return columns;
    }
}
