{{- define "addon-operator.name" -}}{{ .Release.Name }}{{- end -}}
{{- define "addon-operator.clusterName" -}}{{ .Release.Namespace }}-{{ .Release.Name }}{{- end -}}
{{- define "addon-operator.labels" -}}
app.kubernetes.io/name: addon-operator
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
