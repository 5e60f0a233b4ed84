using System.Text.Json.Serialization;

namespace SyncData.Shared;

/// <summary>
/// One row of the orders table (sql/schema.sql): the wide row of the types services carry, as the row contract both
/// services and the wire formats share. Every PostgreSQL type has the .NET type EF Core's Npgsql provider maps it to
/// by default.
/// </summary>
public sealed class Order
{
    /// <summary>bigint identity; the source's ids are written as they are.</summary>
    public long Id { get; set; }
    public Guid CustomerId { get; set; }
    public OrderStatus Status { get; set; }
    /// <summary>numeric(19,4): always within decimal (15 integer digits, scale 4).</summary>
    public decimal Total { get; set; }
    public decimal? Discount { get; set; }
    /// <summary>Unconstrained numeric: a value decimal cannot hold exactly (NaN, ±Infinity, scale above 28, more than 96 bits) is refused by name.</summary>
    public decimal ExchangeRate { get; set; }
    /// <summary>char(3).</summary>
    public string Currency { get; set; } = "";
    /// <summary>timestamptz: DateTimeKind.Utc, microsecond precision.</summary>
    public DateTime PlacedAt { get; set; }
    public DateOnly? DeliveryDate { get; set; }
    /// <summary>text[], one-dimensional from 1 (what string?[] can say), NULL elements kept.</summary>
    public string?[] Tags { get; set; } = [];
    /// <summary>
    /// jsonb as its text: the service moves the document, it does not interpret it. On a JSON wire it travels as the JSON
    /// value it is, not as a string holding JSON (<see cref="RawJsonConverter"/>).
    /// </summary>
    [JsonConverter(typeof(RawJsonConverter))]
    public string Attributes { get; set; } = "{}";
    public string? Note { get; set; }
    /// <summary>bytea (base64 on a JSON wire).</summary>
    public byte[]? Attachment { get; set; }
    public int ItemCount { get; set; }
    public bool IsGift { get; set; }
    public string ShippingAddress { get; set; } = "";
}
