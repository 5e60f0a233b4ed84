using SomeService.Fetch;
using SyncData.Grpc;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: the users row's wire mapping keeps every value exact or refuses it.</summary>
[Trait("Tier", "Fast")]
public sealed class UsersMessagesTests
{
    private const long Year1 = -63_082_281_600_000_000L; // 0001-01-01 00:00:00 in PostgreSQL microseconds (since 2000-01-01)
    private const long Year9999End = 252_455_615_999_999_999L; // 9999-12-31 23:59:59.999999

    public static TheoryData<long, string> Carried => new()
    {
        { long.MaxValue, "9999-12-31T23:59:59.9999999" }, // infinity: DateTime.MaxValue, which Npgsql writes as infinity
        { long.MinValue, "0001-01-01T00:00:00.0000000" }, // -infinity: DateTime.MinValue, which Npgsql writes as -infinity
        { Year1 + 1, "0001-01-01T00:00:00.0000010" },
        { Year9999End, "9999-12-31T23:59:59.9999990" },
        { 0, "2000-01-01T00:00:00.0000000" },
        { -1, "1999-12-31T23:59:59.9999990" },
    };

    [Theory]
    [MemberData(nameof(Carried))]
    public void Infinity_and_every_microsecond_DateTime_holds_arrive_exactly(long micros, string expected)
    {
        var user = UsersGrpcRows.ToUser(new UserRow { CreatedAt = micros });
        Assert.Equal(expected, user.CreatedAt.ToString("O", System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal(DateTimeKind.Unspecified, user.CreatedAt.Kind);
    }

    [Theory]
    [InlineData(Year1)] // DateTime.MinValue would be written back as -infinity
    [InlineData(Year1 - 1)] // 0001-12-31 23:59:59.999999 BC
    [InlineData(Year9999End + 1)] // 10000-01-01
    [InlineData(-211_781_865_600_000_000L)] // 4713-11-24 BC, PostgreSQL's first day
    [InlineData(9_223_371_331_199_999_999L)] // 294276-12-31 23:59:59.999999, its last microsecond
    public void A_timestamp_DateTime_cannot_carry_is_refused_not_mapped(long micros)
    {
        var refused = Assert.Throws<SourceStreamException>(() => UsersGrpcRows.ToUser(new UserRow { CreatedAt = micros }));
        Assert.StartsWith($"row {Guid.Empty}: created_at = {PostgresTimestamp.Format(micros)} cannot be carried", refused.Message);
    }

    [Theory]
    [InlineData("00000000-0000-0000-0000-000000000000")]
    [InlineData("ffffffff-ffff-ffff-ffff-ffffffffffff")]
    [InlineData("0193f0a2-7c1d-7e3f-8a9b-0123456789ab")]
    public void The_uuid_crosses_as_two_fixed64_in_PostgreSQL_byte_order(string text)
    {
        var (high, low) = GrpcUuid.Halves(Guid.Parse(text));
        Assert.Equal(Guid.Parse(text), GrpcUuid.FromHalves(high, low));
        // Big-endian halves: PostgreSQL's uuid order is the numeric order of (high, low).
        Assert.Equal(Convert.ToUInt64(text.Replace("-", "")[..16], 16), high);
    }
}
