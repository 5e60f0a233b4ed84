namespace SomeService.Fetch;

/// <summary>The source stopped, stalled or sent something malformed; the message says which and where.</summary>
public sealed class SourceStreamException(string message, Exception? inner = null) : Exception(message, inner);
