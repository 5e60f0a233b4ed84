using Apache.Arrow;
using Apache.Arrow.Types;

namespace SyncData.Arrow;

/// <summary>
/// The orders table as Arrow columns: the schema both halves of ArrowStream agree on and the source's record batches
/// built column by column (an instance; SomeService reads them back into Orders, refusing what the row cannot hold).
/// The types: id int64, customer_id arrow.uuid, status utf8 (the enum's label), total/discount/exchange_rate utf8
/// holding PostgreSQL's own numeric text (decimal128 has one scale per column and no NaN or ±Infinity, so it would alter
/// an unconstrained numeric's per-value scale; the text carries every numeric exactly), currency utf8, placed_at
/// timestamp[us, UTC], delivery_date date32, tags list&lt;utf8&gt; with NULL elements, attributes utf8 (jsonb's text,
/// said by the field's metadata), note utf8, attachment binary, item_count int32, is_gift bool, shipping_address utf8;
/// discount, delivery_date, note and attachment nullable, as the columns are.
/// </summary>
public sealed class OrdersArrow
{
    private static readonly TimestampType PlacedAtType = new(TimeUnit.Microsecond, "UTC");
    private static readonly KeyValuePair<string, string> NumericText = new("SyncData:postgres", "numeric, as PostgreSQL prints it");

    public static Schema Schema { get; } = new Schema.Builder()
        .Field(new Field("id", Int64Type.Default, nullable: false))
        .Field(new Field("customer_id", GuidType.Default, nullable: false))
        .Field(new Field("status", StringType.Default, nullable: false, [new("SyncData:postgres", "enum order_status, its label")]))
        .Field(new Field("total", StringType.Default, nullable: false, [NumericText]))
        .Field(new Field("discount", StringType.Default, nullable: true, [NumericText]))
        .Field(new Field("exchange_rate", StringType.Default, nullable: false, [NumericText]))
        .Field(new Field("currency", StringType.Default, nullable: false))
        .Field(new Field("placed_at", PlacedAtType, nullable: false, [ArrowFormat.TimestampInfinity]))
        .Field(new Field("delivery_date", Date32Type.Default, nullable: true, [ArrowFormat.DateInfinity]))
        .Field(new Field("tags", new ListType(new Field("item", StringType.Default, nullable: true)), nullable: false))
        .Field(new Field("attributes", StringType.Default, nullable: false, [new("SyncData:postgres", "jsonb, as PostgreSQL prints it")]))
        .Field(new Field("note", StringType.Default, nullable: true))
        .Field(new Field("attachment", BinaryType.Default, nullable: true))
        .Field(new Field("item_count", Int32Type.Default, nullable: false))
        .Field(new Field("is_gift", BooleanType.Default, nullable: false))
        .Field(new Field("shipping_address", StringType.Default, nullable: false))
        .Build();

    private readonly Int64Array.Builder _id = new();
    private readonly GuidArray.Builder _customerId = new();
    private readonly StringArray.Builder _status = new(), _total = new(), _discount = new(), _exchangeRate = new(), _currency = new();
    private readonly ArrowBuffer.Builder<long> _placedAt = new();
    private readonly ArrowBuffer.Builder<int> _deliveryDays = new();
    private readonly ArrowBuffer.BitmapBuilder _deliveryValid = new();
    private readonly ListArray.Builder _tags = new(new Field("item", StringType.Default, nullable: true));
    private readonly StringArray.Builder _attributes = new(), _note = new(), _shippingAddress = new();
    private readonly BinaryArray.Builder _attachment = new();
    private readonly Int32Array.Builder _itemCount = new();
    private readonly BooleanArray.Builder _isGift = new();

    /// <summary>Rows appended since the last <see cref="Build"/>.</summary>
    public int Count { get; private set; }

    /// <summary>The values as PostgreSQL holds them: numerics and jsonb as its text, timestamps in its microseconds and dates in its days (±infinity as the integer's max/min), checked by the source to be carried.</summary>
    public void Append(long id, Guid customerId, string status, string total, string? discount, string exchangeRate, string currency,
        long placedAtPostgresMicros, int? deliveryDatePostgresDays, string?[] tags, string attributes, string? note, byte[]? attachment,
        int itemCount, bool isGift, string shippingAddress)
    {
        _id.Append(id);
        _customerId.Append(customerId);
        _status.Append(status);
        _total.Append(total);
        _discount.Append(discount);
        _exchangeRate.Append(exchangeRate);
        _currency.Append(currency);
        _placedAt.Append(ArrowFormat.ToArrowMicros(placedAtPostgresMicros));
        AppendDays(deliveryDatePostgresDays);
        AppendTags(tags);
        _attributes.Append(attributes);
        _note.Append(note);
        AppendBytes(attachment);
        _itemCount.Append(itemCount);
        _isGift.Append(isGift);
        _shippingAddress.Append(shippingAddress);
        Count++;
    }

    /// <summary>The rows appended so far as one record batch (the caller disposes it); the builders start over.</summary>
    public RecordBatch Build()
    {
        var undated = _deliveryValid.UnsetBitCount;
        var batch = new RecordBatch(Schema,
        [
            _id.Build(), _customerId.Build(), _status.Build(), _total.Build(), _discount.Build(), _exchangeRate.Build(), _currency.Build(),
            new TimestampArray(PlacedAtType, _placedAt.Build(), ArrowBuffer.Empty, Count, 0, 0),
            new Date32Array(_deliveryDays.Build(), _deliveryValid.Build(), Count, undated, 0), _tags.Build(), _attributes.Build(), _note.Build(), _attachment.Build(), _itemCount.Build(), _isGift.Build(),
            _shippingAddress.Build(),
        ], Count);
        _id.Clear();
        _customerId.Clear();
        foreach (var text in (StringArray.Builder[])[_status, _total, _discount, _exchangeRate, _currency, _attributes, _note, _shippingAddress])
        {
            text.Clear();
        }

        _placedAt.Clear();
        _deliveryDays.Clear();
        _deliveryValid.Clear();
        _tags.Clear();
        _attachment.Clear();
        _itemCount.Clear();
        _isGift.Clear();
        Count = 0;
        return batch;
    }

    public static string? Mismatch(Schema received) => ArrowFormat.Mismatch(Schema, received);

    /// <summary>
    /// Date32Array's builder takes DateOnly/DateTime, which hold neither the years before Christ nor ±infinity; Arrow
    /// stores days since 1970, so the day count goes into the buffers as it is, with its validity bit.
    /// </summary>
    private void AppendDays(int? postgresDays)
    {
        _deliveryDays.Append(postgresDays is { } days ? ArrowFormat.ToArrowDays(days) : 0);
        _deliveryValid.Append(postgresDays is not null);
    }

    private void AppendTags(string?[] tags)
    {
        _tags.Append();
        var elements = (StringArray.Builder)_tags.ValueBuilder;
        foreach (var tag in tags)
        {
            elements.Append(tag);
        }
    }

    private void AppendBytes(byte[]? bytes)
    {
        if (bytes is null)
        {
            _attachment.AppendNull();
        }
        else
        {
            _attachment.Append(bytes.AsSpan());
        }
    }
}
