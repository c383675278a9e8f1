{{/*
Names and labels, as `helm create` spells them, so selectors and
`app.kubernetes.io/instance` (what undrift tracks a release by) stay stable.
No template reads the cluster (no lookup, no .Capabilities): `helm template`
offline, as undrift's helm targets render, gives what `helm install` applies.
*/}}
{{- define "undrift.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "undrift.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "undrift.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "undrift.selectorLabels" -}}
app.kubernetes.io/name: {{ include "undrift.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "undrift.labels" -}}
helm.sh/chart: {{ include "undrift.chart" . }}
{{ include "undrift.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* A worker's name: "<fullname>-worker-<entry name>". Call with (dict "root" $ "worker" $w). */}}
{{- define "undrift.workerName" -}}
{{- printf "%s-worker-%s" (include "undrift.fullname" .root) .worker.name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fails when two entries of workers: would make objects of one name: the API server takes the second
Deployment, ServiceAccount and PodDisruptionBudget as an update of the first, so one worker silently goes.
A name repeated is named as such; distinct names the 63-character cut makes equal are named with both.
*/}}
{{- define "undrift.checkWorkers" -}}
{{- $seen := dict }}
{{- range $i, $w := .Values.workers }}
{{- $name := include "undrift.workerName" (dict "root" $ "worker" $w) }}
{{- with get $seen $name }}
{{- if eq .name $w.name }}
{{- fail (printf "workers[%d].name %q is used twice (workers[%d] has it too): give each worker its own name" $i $w.name .index) }}
{{- end }}
{{- fail (printf "workers[%d].name %q and workers[%d].name %q both make objects named %q once cut to 63 characters: shorten one or fullnameOverride" $i $w.name .index .name $name) }}
{{- end }}
{{- $_ := set $seen $name (dict "index" $i "name" $w.name) }}
{{- end }}
{{- end }}

{{- define "undrift.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag }}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository $tag }}
{{- end }}
{{- end }}

{{/*
The clusters a worker serves: its `clusters`, or all of the registry's. Fails on a
name the registry lacks, at install rather than in a crash-looping pod. Returns JSON
({"names": [...]}) as include can only return text. Call with (dict "root" $ "worker" $w).
*/}}
{{- define "undrift.workerClusters" -}}
{{- $registry := .root.Values.clusters }}
{{- $names := .worker.clusters | default (keys $registry | sortAlpha) }}
{{- if not $names }}
{{- fail (printf "workers[%s]: the cluster registry (clusters:) is empty: name the clusters this worker serves there" .worker.name) }}
{{- end }}
{{- range $names }}
{{- if not (hasKey $registry .) }}
{{- fail (printf "workers[%s].clusters: %q is not in clusters: (it has: %s)" $.worker.name . (keys $registry | sortAlpha | join ", ")) }}
{{- end }}
{{- end }}
{{- dict "names" $names | toJson }}
{{- end }}

{{/* Whether a worker serves an inCluster cluster, so it needs its ServiceAccount's token and RBAC: "true" or "". */}}
{{- define "undrift.workerInCluster" -}}
{{- $names := (include "undrift.workerClusters" . | fromJson).names }}
{{- range $names }}
{{- if (get $.root.Values.clusters .).inCluster }}true{{ end }}
{{- end }}
{{- end }}

{{/* Where the registry puts a cluster's kubeconfig: one folder per cluster, as the worker mounts it. */}}
{{- define "undrift.kubeconfigPath" -}}
/etc/undrift/kubeconfigs/{{ . }}/kubeconfig
{{- end }}

{{/* A cluster's kubeconfig volume: a DNS label whatever the cluster's name, kept unique by its hash. */}}
{{- define "undrift.kubeconfigVolume" -}}
kubeconfig-{{ . | lower | replace "_" "-" | replace "." "-" | trunc 40 | trimSuffix "-" }}-{{ . | sha256sum | trunc 8 }}
{{- end }}

{{/* The cluster registry's YAML (UNDRIFT_CLUSTERS), as src/config/cluster-registry.ts reads it. */}}
{{- define "undrift.registry" -}}
{{- $clusters := dict }}
{{- range $name, $c := .Values.clusters }}
{{- $entry := dict "repositories" $c.repositories }}
{{- if $c.inCluster }}
{{- $_ := set $entry "inCluster" true }}
{{- else }}
{{- $_ := set $entry "kubeconfig" (include "undrift.kubeconfigPath" $name) }}
{{- with $c.context }}{{ $_ := set $entry "context" . }}{{ end }}
{{- end }}
{{- with $c.audit }}
{{- if .tokenSecret }}
{{- $_ := set $entry "audit" (dict "token" (dict "file" (printf "%s/token" (include "undrift.auditDir" $name)))) }}
{{- else }}
{{- $_ := set $entry "audit" (dict "clientCertificate" (dict "commonName" .clientCertificate.commonName)) }}
{{- end }}
{{- end }}
{{- $_ := set $clusters $name $entry }}
{{- end }}
{{- $registry := dict "clusters" $clusters }}
{{- with .Values.channels }}
{{- $channels := dict }}
{{- range $name, $c := . }}
{{- $entry := dict "kind" $c.kind "repositories" $c.repositories "url" (dict "file" (printf "%s/url" (include "undrift.channelDir" $name))) }}
{{- if eq $c.kind "webhook" }}
{{- $_ := set $entry "secret" (dict "file" (printf "%s/secret" (include "undrift.channelDir" $name))) }}
{{- end }}
{{- $_ := set $channels $name $entry }}
{{- end }}
{{- $_ := set $registry "channels" $channels }}
{{- end }}
{{- $registry | toYaml }}
{{- end }}

{{/* Where a notification channel's Secret is mounted in the workers: its URL (and a webhook's HMAC key) as files, read at each send. */}}
{{- define "undrift.channelDir" -}}
/etc/undrift/channels/{{ . }}
{{- end }}

{{/* Where a cluster's audit webhook token is mounted in the web pods (only they receive audit events). */}}
{{- define "undrift.auditDir" -}}
/etc/undrift/audit/{{ . }}
{{- end }}

{{/* A cluster's audit token volume: a DNS label whatever the cluster's name, kept unique by its hash. */}}
{{- define "undrift.auditVolume" -}}
audit-{{ . | lower | replace "_" "-" | replace "." "-" | trunc 40 | trimSuffix "-" }}-{{ . | sha256sum | trunc 8 }}
{{- end }}

{{/* A channel's volume: a DNS label whatever the channel's name, kept unique by its hash. */}}
{{- define "undrift.channelVolume" -}}
channel-{{ . | lower | replace "_" "-" | replace "." "-" | trunc 40 | trimSuffix "-" }}-{{ . | sha256sum | trunc 8 }}
{{- end }}

{{/*
REDIS_URL with the password from its Secret, put in by the kubelet ($(REDIS_PASSWORD) expansion).
A password in redis.url would sit in a plain env value (and the release's values) for anyone who can read
the Deployment: refused, in the userinfo as in ioredis' `?password=` query, the two places ioredis reads one.
*/}}
{{- define "undrift.redisEnv" -}}
{{- $url := .Values.redis.url }}
{{- $parsed := urlParse $url }}
{{- if or (regexMatch ":." $parsed.userinfo) (regexMatch "(^|&)password=" $parsed.query) }}
{{- fail "redis.url has a password: put it in a Secret named by redis.password.existingSecret (key redis.password.key) instead" }}
{{- end }}
{{- if .Values.redis.password.existingSecret }}
- name: REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .Values.redis.password.existingSecret }}
      key: {{ .Values.redis.password.key }}
{{- $u := urlParse $url }}
{{- $user := (splitList ":" $u.userinfo | first) | default "" }}
{{- $url = printf "%s://%s:$(REDIS_PASSWORD)@%s%s%s" $u.scheme $user $u.host $u.path (ternary (printf "?%s" $u.query) "" (ne $u.query "")) }}
{{- end }}
- name: REDIS_URL
  value: {{ $url | quote }}
{{- if .Values.redis.tls.caSecret }}
- name: NODE_EXTRA_CA_CERTS
  value: /etc/undrift/redis-ca/ca.crt
{{- end }}
{{- end }}

{{/* The environment web and workers share: GitHub App, Redis, writable places, the user's own. */}}
{{- define "undrift.commonEnv" -}}
- name: APP_ID
  valueFrom:
    secretKeyRef:
      name: {{ .Values.github.existingSecret }}
      key: {{ .Values.github.appIdKey }}
- name: PRIVATE_KEY_PATH
  value: /etc/undrift/github/private-key.pem
{{- with .Values.github.host }}
- name: GHE_HOST
  value: {{ . | quote }}
{{- end }}
{{- with .Values.github.protocol }}
- name: GHE_PROTOCOL
  value: {{ . | quote }}
{{- end }}
{{- include "undrift.redisEnv" . }}
- name: UNDRIFT_CACHE
  value: /var/cache/undrift
{{- range $name, $value := .Values.env }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Volumes web and workers share: the App's private key, Redis' CA, the registry, the writable emptyDirs. */}}
{{- define "undrift.commonVolumes" -}}
- name: github
  secret:
    secretName: {{ .Values.github.existingSecret }}
    items:
      - key: {{ .Values.github.privateKeyKey }}
        path: private-key.pem
{{- if .Values.redis.tls.caSecret }}
- name: redis-ca
  secret:
    secretName: {{ .Values.redis.tls.caSecret }}
    items:
      - key: {{ .Values.redis.tls.caKey }}
        path: ca.crt
{{- end }}
- name: registry
  configMap:
    name: {{ include "undrift.fullname" . }}-clusters
- name: tmp
  emptyDir:
    sizeLimit: {{ .Values.scratchSizeLimit }}
- name: cache
  emptyDir:
    sizeLimit: {{ .Values.scratchSizeLimit }}
{{- end }}

{{- define "undrift.commonMounts" -}}
- name: github
  mountPath: /etc/undrift/github
  readOnly: true
{{- if .Values.redis.tls.caSecret }}
- name: redis-ca
  mountPath: /etc/undrift/redis-ca
  readOnly: true
{{- end }}
- name: registry
  mountPath: /etc/undrift/registry
  readOnly: true
- name: tmp
  mountPath: /tmp
- name: cache
  mountPath: /var/cache/undrift
{{- end }}

{{- define "undrift.probes" -}}
livenessProbe:
  httpGet:
    path: /healthz
    port: {{ .port }}
  periodSeconds: {{ .root.Values.probes.liveness.periodSeconds }}
  timeoutSeconds: {{ .root.Values.probes.liveness.timeoutSeconds }}
  failureThreshold: {{ .root.Values.probes.liveness.failureThreshold }}
readinessProbe:
  httpGet:
    path: /readyz
    port: {{ .port }}
  periodSeconds: {{ .root.Values.probes.readiness.periodSeconds }}
  timeoutSeconds: {{ .root.Values.probes.readiness.timeoutSeconds }}
  failureThreshold: {{ .root.Values.probes.readiness.failureThreshold }}
{{- end }}

{{/* The core group's resources but Secrets: RBAC grants, it cannot subtract. */}}
{{- define "undrift.coreResources" -}}
{{- list "configmaps" "endpoints" "events" "limitranges" "namespaces" "nodes" "persistentvolumeclaims" "persistentvolumes" "pods" "podtemplates" "replicationcontrollers" "resourcequotas" "serviceaccounts" "services" | toJson }}
{{- end }}

{{/*
The verbs of a tier, from what undrift sends (src/live/): GET for discovery, get
and list (watch for tools beside it); a server-side apply, its dry-run and a
managed-fields patch are PATCH, which the API server also authorizes as create
when the object is missing, as a dry-run create is; prune is DELETE.
*/}}
{{- define "undrift.tierVerbs" -}}
{{- $verbs := list "get" "list" "watch" }}
{{- if or (eq . "apply") (eq . "prune") }}{{ $verbs = concat $verbs (list "patch" "create") }}{{ end }}
{{- if eq . "prune" }}{{ $verbs = append $verbs "delete" }}{{ end }}
{{- $verbs | toJson }}
{{- end }}

{{/* Egress when restricted: the user's rules, and DNS, without which no rule by name works. */}}
{{- define "undrift.egressRules" -}}
{{- with .Values.networkPolicy.egress -}}
egress:
  - ports:
      - port: 53
        protocol: UDP
      - port: 53
        protocol: TCP
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}
