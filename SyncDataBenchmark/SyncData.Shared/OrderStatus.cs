namespace SyncData.Shared;

/// <summary>The orders table's PostgreSQL enum order_status, value for value (Npgsql's name translation: Pending ↔ 'pending').</summary>
public enum OrderStatus
{
    Pending,
    Paid,
    Shipped,
    Delivered,
    Cancelled,
    Refunded,
}
