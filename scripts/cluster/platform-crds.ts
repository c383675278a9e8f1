// CRDs shaped like those a platform team installs (cert-manager, prometheus-operator,
// Gateway API, Istio, Crossplane and a few of its generated providers), so scans
// meet as many served kinds as real clusters have. Only names, scopes, versions and
// a structural schema are modelled; spec and status keep unknown fields.
import type { ClusterObject } from "./api.ts";

interface Family {
  group: string;
  /** Served versions, the first one stored (Istio and Gateway API serve several). */
  versions: string[];
  categories: string[];
  namespaced: string[];
  cluster?: string[];
}

const upbound = (group: string, kinds: string[]): Family => ({
  group,
  versions: ["v1beta1"],
  categories: ["crossplane", "managed", group.split(".")[1] ?? "provider"],
  namespaced: [],
  // Crossplane's managed resources are cluster scoped, each provider group with its own ProviderConfig.
  cluster: [...kinds, "ProviderConfig", "ProviderConfigUsage"],
});

const families: Family[] = [
  {
    group: "cert-manager.io",
    versions: ["v1"],
    categories: ["cert-manager"],
    namespaced: ["Certificate", "CertificateRequest", "Issuer"],
    cluster: ["ClusterIssuer"],
  },
  {
    group: "acme.cert-manager.io",
    versions: ["v1"],
    categories: ["cert-manager", "cert-manager-acme"],
    namespaced: ["Order", "Challenge"],
  },
  {
    group: "monitoring.coreos.com",
    versions: ["v1"],
    categories: ["prometheus-operator"],
    namespaced: [
      "Prometheus",
      "Alertmanager",
      "ServiceMonitor",
      "PodMonitor",
      "Probe",
      "PrometheusRule",
      "ThanosRuler",
    ],
  },
  {
    group: "monitoring.coreos.com",
    versions: ["v1alpha1"],
    categories: ["prometheus-operator"],
    namespaced: ["AlertmanagerConfig", "PrometheusAgent", "ScrapeConfig"],
  },
  {
    group: "gateway.networking.k8s.io",
    versions: ["v1", "v1beta1"],
    categories: ["gateway-api"],
    namespaced: ["Gateway", "HTTPRoute", "GRPCRoute"],
    cluster: ["GatewayClass"],
  },
  {
    group: "gateway.networking.k8s.io",
    versions: ["v1beta1"],
    categories: ["gateway-api"],
    namespaced: ["ReferenceGrant"],
  },
  {
    group: "gateway.networking.k8s.io",
    versions: ["v1alpha2"],
    categories: ["gateway-api"],
    namespaced: ["TCPRoute", "TLSRoute", "UDPRoute"],
  },
  {
    group: "gateway.networking.k8s.io",
    versions: ["v1alpha3"],
    categories: ["gateway-api"],
    namespaced: ["BackendTLSPolicy"],
  },
  {
    group: "networking.istio.io",
    versions: ["v1", "v1beta1", "v1alpha3"],
    categories: ["istio-io", "networking-istio-io"],
    namespaced: [
      "VirtualService",
      "DestinationRule",
      "Gateway",
      "ServiceEntry",
      "Sidecar",
      "WorkloadEntry",
      "WorkloadGroup",
    ],
  },
  { group: "networking.istio.io", versions: ["v1alpha3"], categories: ["istio-io"], namespaced: ["EnvoyFilter"] },
  { group: "networking.istio.io", versions: ["v1beta1"], categories: ["istio-io"], namespaced: ["ProxyConfig"] },
  {
    group: "security.istio.io",
    versions: ["v1", "v1beta1"],
    categories: ["istio-io", "security-istio-io"],
    namespaced: ["AuthorizationPolicy", "PeerAuthentication", "RequestAuthentication"],
  },
  { group: "telemetry.istio.io", versions: ["v1", "v1alpha1"], categories: ["istio-io"], namespaced: ["Telemetry"] },
  { group: "extensions.istio.io", versions: ["v1alpha1"], categories: ["istio-io"], namespaced: ["WasmPlugin"] },
  {
    group: "pkg.crossplane.io",
    versions: ["v1"],
    categories: ["crossplane", "pkg"],
    namespaced: [],
    cluster: ["Provider", "Configuration", "Function", "ProviderRevision", "ConfigurationRevision", "FunctionRevision"],
  },
  {
    group: "pkg.crossplane.io",
    versions: ["v1beta1"],
    categories: ["crossplane", "pkg"],
    namespaced: [],
    cluster: ["DeploymentRuntimeConfig", "Lock", "ImageConfig"],
  },
  {
    group: "apiextensions.crossplane.io",
    versions: ["v1"],
    categories: ["crossplane"],
    namespaced: [],
    cluster: ["CompositeResourceDefinition", "Composition", "CompositionRevision"],
  },
  {
    group: "apiextensions.crossplane.io",
    versions: ["v1beta1"],
    categories: ["crossplane"],
    namespaced: [],
    cluster: ["EnvironmentConfig"],
  },
  upbound("ec2.aws.upbound.io", [
    "VPC",
    "Subnet",
    "SecurityGroup",
    "SecurityGroupRule",
    "Instance",
    "RouteTable",
    "Route",
    "InternetGateway",
    "NATGateway",
    "EIP",
  ]),
  upbound("s3.aws.upbound.io", [
    "Bucket",
    "BucketPolicy",
    "BucketVersioning",
    "BucketACL",
    "BucketLifecycleConfiguration",
  ]),
  upbound("rds.aws.upbound.io", ["Instance", "Cluster", "SubnetGroup", "ParameterGroup", "ClusterParameterGroup"]),
  upbound("iam.aws.upbound.io", ["Role", "Policy", "RolePolicyAttachment", "User", "Group", "InstanceProfile"]),
  upbound("compute.gcp.upbound.io", ["Network", "Subnetwork", "Instance", "Firewall", "Router", "Address"]),
  upbound("container.gcp.upbound.io", ["Cluster", "NodePool"]),
  upbound("network.azure.upbound.io", ["VirtualNetwork", "Subnet", "NetworkSecurityGroup", "PublicIP", "LoadBalancer"]),
];

/** `Policy` -> `policies`, `Ingress` -> `ingresses`, `VPC` -> `vpcs`, as kubebuilder pluralizes. */
function plural(kind: string): string {
  const lower = kind.toLowerCase();
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  return `${lower}s`;
}

const schema = {
  openAPIV3Schema: {
    type: "object",
    properties: {
      spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    },
  },
};

function crd(family: Family, kind: string, namespaced: boolean): ClusterObject {
  const names = {
    kind,
    listKind: `${kind}List`,
    plural: plural(kind),
    singular: kind.toLowerCase(),
    categories: family.categories,
  };
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: {
      name: `${names.plural}.${family.group}`,
      labels: { "undrift-test/platform": "true" },
      // Groups under k8s.io need an approved API review, as Gateway API's CRDs carry.
      ...(/(^|\.)(k8s|kubernetes)\.io$/.test(family.group)
        ? { annotations: { "api-approved.kubernetes.io": "https://github.com/kubernetes-sigs/gateway-api/pull/1538" } }
        : {}),
    },
    spec: {
      group: family.group,
      scope: namespaced ? "Namespaced" : "Cluster",
      names,
      versions: family.versions.map((name, i) => ({
        name,
        served: true,
        storage: i === 0,
        schema,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
          { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
        ],
      })),
    },
  };
}

/** Every platform CRD; a kind that two families name in one group is listed once. */
export function platformCrds(): ClusterObject[] {
  const byName = new Map<string, ClusterObject>();
  for (const family of families) {
    for (const kind of family.namespaced) byName.set(`${plural(kind)}.${family.group}`, crd(family, kind, true));
    for (const kind of family.cluster ?? []) byName.set(`${plural(kind)}.${family.group}`, crd(family, kind, false));
  }
  return [...byName.values()];
}
