package drift_test

// deployment is a chart's Deployment as helm renders it.
const deployment = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: apps
  labels:
    app.kubernetes.io/name: web
  annotations:
    meta.helm.sh/release-name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app.kubernetes.io/name: web
  template:
    metadata:
      labels:
        app.kubernetes.io/name: web
    spec:
      securityContext:
        runAsNonRoot: true
      containers:
      - name: web
        image: nginx:1.25
        args: ["--port", "8080"]
        ports:
        - name: http
          containerPort: 8080
        resources:
          requests:
            cpu: 0.5
            memory: 1Gi
          limits:
            memory: 1024Mi
        readinessProbe:
          httpGet:
            path: /healthz
            port: "8080"
        env:
        - name: MODE
          value: prod
        - name: EMPTY
          value: ""
      volumes:
      - name: config
        configMap:
          name: web
          optional: false
`

// liveDeployment is that Deployment as the apiserver returns it once defaulted, with its
// image edited by hand (nginx:1.26) and an annotation added by kubectl.
const liveDeployment = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: apps
  uid: 6f1c2b7e-0000-4000-8000-000000000001
  resourceVersion: "48213"
  generation: 3
  creationTimestamp: "2024-05-01T10:00:00Z"
  labels:
    app.kubernetes.io/name: web
    app.kubernetes.io/managed-by: Helm
  annotations:
    meta.helm.sh/release-name: web
    meta.helm.sh/release-namespace: apps
    deployment.kubernetes.io/revision: "3"
    kubectl.kubernetes.io/restartedAt: "2024-05-02T09:00:00Z"
  managedFields:
  - manager: helm
    operation: Update
spec:
  replicas: 2
  progressDeadlineSeconds: 600
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app.kubernetes.io/name: web
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}
  template:
    metadata:
      creationTimestamp: null
      labels:
        app.kubernetes.io/name: web
    spec:
      securityContext:
        runAsNonRoot: true
      containers:
      - name: web
        image: nginx:1.26
        imagePullPolicy: IfNotPresent
        args: ["--port", "8080"]
        ports:
        - name: http
          containerPort: 8080
          protocol: TCP
        resources:
          requests:
            cpu: 500m
            memory: 1Gi
          limits:
            memory: 1Gi
        readinessProbe:
          httpGet:
            path: /healthz
            port: 8080
            scheme: HTTP
          timeoutSeconds: 1
          periodSeconds: 10
          successThreshold: 1
          failureThreshold: 3
        env:
        - name: MODE
          value: prod
        - name: EMPTY
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      volumes:
      - name: config
        configMap:
          name: web
          defaultMode: 420
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      terminationGracePeriodSeconds: 30
status:
  replicas: 2
  readyReplicas: 1
  observedGeneration: 3
`

// secret sets one key by data and two by stringData.
const secret = `
apiVersion: v1
kind: Secret
metadata:
  name: db
type: Opaque
data:
  user: YWRtaW4=
stringData:
  password: s3cret
  url: postgres://db
`
