namespace SyncDataSource.Fetches;

internal static class ExceptionRethrow
{
    /// <summary>Rethrows with the original stack trace; typed as an expression for use after `??`.</summary>
    public static Exception Rethrown(this Exception ex)
    {
        System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(ex).Throw();
        return ex;
    }
}
