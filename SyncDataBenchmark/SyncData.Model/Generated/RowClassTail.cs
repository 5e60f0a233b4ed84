using System.Text;
using SyncData.Postgres.Catalog;

namespace SyncData.Model.Generated;

/// <summary>What a service adds to a described table's generated row classes (<see cref="RowClassSource.Generate"/>): types of its own over the entity.</summary>
/// <param name="source">The source so far, to append to.</param>
/// <param name="entity">The entity class's name.</param>
/// <param name="columns">Every COPY column as the entity holds it.</param>
/// <param name="enums">The generated enums and the PostgreSQL enums they stand for.</param>
public delegate void RowClassTail(StringBuilder source, string entity, List<GeneratedColumn> columns, List<(string Name, ColumnBaseType Type)> enums);
