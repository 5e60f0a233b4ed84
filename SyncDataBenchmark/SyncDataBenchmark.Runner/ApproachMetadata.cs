using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using SyncData.Harness;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// The approach catalogue as SomeService builds it: the fetches as SyncData.Shared declares them (<see cref="Approach.Fetches"/>),
/// the writers read from SomeService.dll's metadata with System.Reflection.Metadata: the runner validates --cases before
/// any service starts, and it must neither load the service's assembly nor EF Core (LayerTests). The runner's project
/// reference builds SomeService alongside it. A fast test holds this equal to SomeService's own (ApproachRegistry.Catalog).
/// </summary>
public static class ApproachMetadata
{
    private static readonly Lazy<ApproachCatalog> Built = new(() => Read(Lab.BuiltAssembly("SomeService")));

    /// <summary>The catalogue of the SomeService built beside this runner.</summary>
    public static ApproachCatalog Catalog => Built.Value;

    public static ApproachCatalog Read(string assemblyPath)
    {
        if (!File.Exists(assemblyPath))
        {
            throw new FileNotFoundException($"SomeService is not built at {assemblyPath}: the runner reads the approach names from it (build the runner's project, which builds SomeService too).", assemblyPath);
        }

        using var stream = File.OpenRead(assemblyPath);
        using var pe = new PEReader(stream);
        var reader = pe.GetMetadataReader();
        var found = new List<ApproachInfo>();
        foreach (var typeHandle in reader.TypeDefinitions)
        {
            foreach (var attributeHandle in reader.GetTypeDefinition(typeHandle).GetCustomAttributes())
            {
                var attribute = reader.GetCustomAttribute(attributeHandle);
                if (IsApproachAttribute(reader, attribute.Constructor))
                {
                    found.Add(Decode(attribute.DecodeValue(new TypeNames())));
                }
            }
        }

        return new ApproachCatalog(found.Concat(Approach.Fetches));
    }

    private static ApproachInfo Decode(CustomAttributeValue<string> value)
    {
        var declared = new ApproachAttribute((ApproachKind)(int)value.FixedArguments[0].Value!, (string)value.FixedArguments[1].Value!);
        foreach (var named in value.NamedArguments)
        {
            switch (named.Name)
            {
                case nameof(ApproachAttribute.CopyBytes): declared.CopyBytes = (bool)named.Value!; break;
                case nameof(ApproachAttribute.Pages): declared.Pages = (bool)named.Value!; break;
                case nameof(ApproachAttribute.Batches): declared.Batches = (bool)named.Value!; break;
                case nameof(ApproachAttribute.Route): declared.Route = (string?)named.Value; break;
                // A property added to the attribute must be read here too, or the runner would silently ignore it.
                default: throw new InvalidOperationException($"[Approach] argument {named.Name} is not understood by the runner's metadata reader.");
            }
        }

        return declared.ToInfo();
    }

    private static bool IsApproachAttribute(MetadataReader reader, EntityHandle constructor)
    {
        // The attribute lives in SyncData.Shared, so from SomeService.dll its constructor is a member reference.
        if (constructor.Kind != HandleKind.MemberReference)
        {
            return false;
        }

        var parent = reader.GetMemberReference((MemberReferenceHandle)constructor).Parent;
        if (parent.Kind != HandleKind.TypeReference)
        {
            return false;
        }

        var type = reader.GetTypeReference((TypeReferenceHandle)parent);
        return reader.StringComparer.Equals(type.Name, nameof(ApproachAttribute))
               && reader.StringComparer.Equals(type.Namespace, typeof(ApproachAttribute).Namespace!);
    }

    /// <summary>Types by full name: enough to decode the attribute's constant arguments (one enum, strings, booleans).</summary>
    private sealed class TypeNames : ICustomAttributeTypeProvider<string>
    {
        public string GetPrimitiveType(PrimitiveTypeCode typeCode) => typeCode.ToString();

        public string GetSystemType() => "System.Type";

        public string GetSZArrayType(string elementType) => elementType + "[]";

        public string GetTypeFromDefinition(MetadataReader reader, TypeDefinitionHandle handle, byte rawTypeKind)
        {
            var type = reader.GetTypeDefinition(handle);
            return reader.GetString(type.Namespace) + "." + reader.GetString(type.Name);
        }

        public string GetTypeFromReference(MetadataReader reader, TypeReferenceHandle handle, byte rawTypeKind)
        {
            var type = reader.GetTypeReference(handle);
            return reader.GetString(type.Namespace) + "." + reader.GetString(type.Name);
        }

        public string GetTypeFromSerializedName(string name) => name;

        public PrimitiveTypeCode GetUnderlyingEnumType(string type) =>
            type == typeof(ApproachKind).FullName
                ? PrimitiveTypeCode.Int32
                : throw new InvalidOperationException($"[Approach] has an argument of enum type {type}, which the runner's metadata reader does not know.");

        public bool IsSystemType(string type) => type == "System.Type";
    }
}
