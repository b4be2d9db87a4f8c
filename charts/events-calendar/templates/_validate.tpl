{{/* Checks across values that values.schema.json cannot express; stops the render with a clear message. */}}
{{- define "ec.validate" -}}
{{- $consumed := list }}
{{- range $group, $w := .Values.workers }}
{{- if $w.enabled }}
{{- $consumed = concat $consumed $w.queues }}
{{- end }}
{{- end }}
{{- range $queue := list "batch" "oembed" "import" }}
{{- if not (has $queue $consumed) }}
{{- fail (printf "workers: no enabled worker group consumes the %q queue; its jobs would never run (add it to a group's queues)" $queue) }}
{{- end }}
{{- end }}
{{- $pdbs := dict "gateway" .Values.gateway.pdb }}
{{- range $svc, $s := .Values.services }}{{ $_ := set $pdbs (printf "services.%s" $svc) $s.pdb }}{{ end }}
{{- range $group, $w := .Values.workers }}{{ $_ := set $pdbs (printf "workers.%s" $group) $w.pdb }}{{ end }}
{{- range $where, $pdb := $pdbs }}
{{- if and $pdb.enabled (ne (toString $pdb.minAvailable) "") (ne (toString $pdb.maxUnavailable) "") }}
{{- fail (printf "%s.pdb: set minAvailable or maxUnavailable, not both" $where) }}
{{- end }}
{{- if and $pdb.enabled (eq (toString $pdb.minAvailable) "") (eq (toString $pdb.maxUnavailable) "") }}
{{- fail (printf "%s.pdb: set minAvailable or maxUnavailable" $where) }}
{{- end }}
{{- end }}
{{- end }}
