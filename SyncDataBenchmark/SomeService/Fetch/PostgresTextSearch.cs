using System.Buffers.Binary;
using System.Text;
using NpgsqlTypes;

namespace SomeService.Fetch;

/// <summary>
/// tsvector and tsquery's binary COPY forms (tsvectorsend, tsquerysend) as Npgsql's NpgsqlTsVector and NpgsqlTsQuery,
/// which Npgsql, EF Core's provider, EFCore.BulkExtensions and linq2db all write back in the same binary form.
/// </summary>
public static class PostgresTextSearch
{
    /// <summary>
    /// tsvectorsend's layout: the count, then per lexeme its text NUL-terminated, the count of positions and each as a
    /// uint16 (the weight in the top two bits, A = 3 … D = 0, as Npgsql's Weight numbers them). Npgsql 10 builds an
    /// NpgsqlTsVector from lexemes only internally; its public way in is Parse of the text form, so the lexemes are
    /// printed as Npgsql's own Lexeme prints them (each quoted, quotes and backslashes escaped, positions and weights
    /// kept) and parsed back: no free text is parsed, so nothing of PostgreSQL's parser is imitated. Parse is marked
    /// obsolete for free text for that reason; the runner's checksum (tsvectorsend) verifies the round trip.
    /// </summary>
    public static NpgsqlTsVector TsVector(ReadOnlySpan<byte> bytes)
    {
        var lexemes = BinaryPrimitives.ReadInt32BigEndian(bytes);
        var text = new StringBuilder();
        var at = 4;
        for (var i = 0; i < lexemes; i++)
        {
            var end = bytes[at..].IndexOf((byte)0);
            var lexeme = Encoding.UTF8.GetString(bytes.Slice(at, end));
            at += end + 1;
            var count = BinaryPrimitives.ReadUInt16BigEndian(bytes[at..]);
            var positions = new List<NpgsqlTsVector.Lexeme.WordEntryPos>(count);
            at += 2;
            for (var j = 0; j < count; j++, at += 2)
            {
                var position = BinaryPrimitives.ReadUInt16BigEndian(bytes[at..]);
                positions.Add(new(position & 0x3fff, (NpgsqlTsVector.Lexeme.Weight)(position >> 14)));
            }

            text.Append(i == 0 ? "" : " ").Append(new NpgsqlTsVector.Lexeme(lexeme, positions.Count == 0 ? null : positions));
        }

#pragma warning disable CS0618 // the lexemes' own printed form, not free text: see the summary
        return NpgsqlTsVector.Parse(text.ToString());
#pragma warning restore CS0618
    }

    /// <summary>
    /// tsquerysend's layout: the count of items, then the items in prefix order, each an operand (1: its weights as a
    /// bit mask, as Npgsql's Weight numbers them, whether a prefix, its text NUL-terminated) or an operator (2: NOT 1,
    /// AND 2, OR 3, PHRASE 4 with its distance as an int16) followed by its right operand, then its left (as PostgreSQL
    /// stores it and Npgsql writes it).
    /// </summary>
    public static NpgsqlTsQuery TsQuery(ReadOnlySpan<byte> bytes)
    {
        if (BinaryPrimitives.ReadInt32BigEndian(bytes) == 0)
        {
            return new NpgsqlTsQueryEmpty();
        }

        var at = 4;
        return Item(bytes, ref at);
    }

    private static NpgsqlTsQuery Item(ReadOnlySpan<byte> bytes, ref int at)
    {
        if (bytes[at++] == 1)
        {
            var weights = (NpgsqlTsQueryLexeme.Weight)bytes[at++];
            var prefix = bytes[at++] != 0;
            var end = bytes[at..].IndexOf((byte)0);
            var text = Encoding.UTF8.GetString(bytes.Slice(at, end));
            at += end + 1;
            return new NpgsqlTsQueryLexeme(text, weights, prefix);
        }

        var kind = (NpgsqlTsQuery.NodeKind)bytes[at++];
        if (kind == NpgsqlTsQuery.NodeKind.Not)
        {
            return new NpgsqlTsQueryNot(Item(bytes, ref at));
        }

        short distance = 0;
        if (kind == NpgsqlTsQuery.NodeKind.Phrase)
        {
            distance = BinaryPrimitives.ReadInt16BigEndian(bytes[at..]);
            at += 2;
        }

        var right = Item(bytes, ref at);
        var left = Item(bytes, ref at);
        return kind switch
        {
            NpgsqlTsQuery.NodeKind.And => new NpgsqlTsQueryAnd(left, right),
            NpgsqlTsQuery.NodeKind.Or => new NpgsqlTsQueryOr(left, right),
            NpgsqlTsQuery.NodeKind.Phrase => new NpgsqlTsQueryFollowedBy(left, distance, right),
            _ => throw new SourceStreamException($"A tsquery operator of kind {(int)kind}, which tsquerysend does not write."),
        };
    }
}
