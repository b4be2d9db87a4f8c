{{/* Chart name, shortened to a DNS label. */}}
{{- define "ec.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Prefix of every object name: the release name, plus the chart name unless it is already in it. */}}
{{- define "ec.fullname" -}}
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

{{/* Name of a process's objects: "<fullname>-<suffix>". Call with (list $ "suffix"). */}}
{{- define "ec.componentName" -}}
{{- $root := index . 0 }}
{{- printf "%s-%s" (include "ec.fullname" $root) (index . 1) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "ec.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels that select the pods of one component. Call with (dict "root" $ "component" "gateway" "group" ""). */}}
{{- define "ec.selectorLabels" -}}
app.kubernetes.io/name: {{ include "ec.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- if .group }}
events-calendar/worker-group: {{ .group }}
{{- end }}
{{- end }}

{{/* Labels of every object. Same argument as ec.selectorLabels; component may be empty. */}}
{{- define "ec.labels" -}}
helm.sh/chart: {{ include "ec.chart" .root }}
app.kubernetes.io/name: {{ include "ec.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- if .component }}
app.kubernetes.io/component: {{ .component }}
{{- end }}
{{- if .group }}
events-calendar/worker-group: {{ .group }}
{{- end }}
app.kubernetes.io/part-of: {{ include "ec.name" .root }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* The application image reference. */}}
{{- define "ec.image" -}}
{{- $tag := .Values.image.tag | default .Chart.AppVersion | toString | trimSuffix "@" }}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository $tag }}
{{- end }}
{{- end }}

{{- define "ec.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "ec.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Secret holding SERVICE_SECRET, ADMIN_PASSWORD, ADMIN_APP_PASSWORD, MONGO_URL, REDIS_URL. */}}
{{- define "ec.secretName" -}}
{{- default (include "ec.fullname" .) .Values.existingSecret }}
{{- end }}

{{- define "ec.mongoInternalName" -}}
{{- include "ec.componentName" (list . "mongodb") }}
{{- end }}

{{- define "ec.redisInternalName" -}}
{{- include "ec.componentName" (list . "redis") }}
{{- end }}

{{/* The four services behind the gateway, in a fixed order. */}}
{{- define "ec.serviceNames" -}}
- content
- calendar
- aggregator
- oembed
{{- end }}

{{/*
Every application process as a YAML list: the gateway, the four services and each enabled worker
group. Each item: component (pod label), role (container argument), name (object name), group
(worker group or ""), worker (bool), and spec (its values).
*/}}
{{- define "ec.processes" -}}
{{- $procs := list (dict "component" "gateway" "role" "gateway" "name" (include "ec.componentName" (list . "gateway")) "group" "" "worker" false "spec" .Values.gateway) }}
{{- range $svc := include "ec.serviceNames" . | fromYamlArray }}
{{- $procs = append $procs (dict "component" $svc "role" $svc "name" (include "ec.componentName" (list $ $svc)) "group" "" "worker" false "spec" (index $.Values.services $svc)) }}
{{- end }}
{{- range $group := keys .Values.workers | sortAlpha }}
{{- $spec := index $.Values.workers $group }}
{{- if $spec.enabled }}
{{- $procs = append $procs (dict "component" "worker" "role" "worker" "name" (include "ec.componentName" (list $ (printf "worker-%s" $group))) "group" $group "worker" true "spec" $spec) }}
{{- end }}
{{- end }}
{{- toYaml $procs }}
{{- end }}

{{/* In-cluster URL of a service ("content", ...): what the gateway and the workers call. */}}
{{- define "ec.serviceUrl" -}}
{{- $root := index . 0 }}
{{- $svc := index . 1 }}
{{- printf "http://%s:%v" (include "ec.componentName" (list $root $svc)) (index $root.Values.services $svc).service.port }}
{{- end }}

{{/* SITE_URL: the configured one, else derived from the first ingress host. */}}
{{- define "ec.siteUrl" -}}
{{- if .Values.config.siteUrl }}
{{- .Values.config.siteUrl }}
{{- else if and .Values.ingress.enabled .Values.ingress.hosts }}
{{- $host := (index .Values.ingress.hosts 0).host }}
{{- $tls := false }}
{{- range .Values.ingress.tls }}{{ if has $host (.hosts | default list) }}{{ $tls = true }}{{ end }}{{ end }}
{{- printf "%s://%s" (ternary "https" "http" $tls) $host }}
{{- end }}
{{- end }}

{{- define "ec.mongoUrl" -}}
{{- if .Values.mongo.internal.enabled }}
{{- printf "mongodb://%s:27017" (include "ec.mongoInternalName" .) }}
{{- else }}
{{- .Values.mongo.url }}
{{- end }}
{{- end }}

{{- define "ec.redisUrl" -}}
{{- if .Values.redis.internal.enabled }}
{{- printf "redis://%s:6379" (include "ec.redisInternalName" .) }}
{{- else }}
{{- .Values.redis.url }}
{{- end }}
{{- end }}

{{/* Seconds Kubernetes waits after SIGTERM: the application's own grace period, the preStop pause and a margin. */}}
{{- define "ec.terminationGracePeriodSeconds" -}}
{{- add (div (add (int .Values.config.shutdownTimeoutMs) 999) 1000) (int .Values.preStopSleepSeconds) 10 }}
{{- end }}

{{/* The paths an Ingress host routes when its values name none: what the public reaches, never the
     gateway's /metrics, /healthz and /readyz (see ingress.hosts in values.yaml). */}}
{{- define "ec.publicPaths" -}}
- { path: /, pathType: Exact }
- { path: /index.php, pathType: Prefix }
- { path: /events, pathType: Prefix }
- { path: /cms-content, pathType: Prefix }
- { path: /cms-admin, pathType: Prefix }
{{- end }}
