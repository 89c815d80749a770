// Drives the API server with the official JavaScript client, loading the server's own kubeconfig as is
// (TLS verified with its CA, the admin's client certificate).
// Prints one JSON line per step; any failure prints {"error": ...} and exits 1.
import * as k8s from '@kubernetes/client-node';

const [kubeconfig, namespace, name] = process.argv.slice(2);
const kc = new k8s.KubeConfig();
kc.loadFromFile(kubeconfig);
const core = kc.makeApiClient(k8s.CoreV1Api);
const authn = kc.makeApiClient(k8s.AuthenticationV1Api);
try {
  const review = await authn.createSelfSubjectReview({
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  const user = review.status.userInfo;
  console.log(JSON.stringify({ step: 'whoami', username: user.username, groups: user.groups }));
  const namespaces = await core.listNamespace();
  console.log(JSON.stringify({ step: 'list', names: namespaces.items.map(n => n.metadata.name) }));
  const created = await core.createNamespacedConfigMap({
    namespace, body: { metadata: { name }, data: { greeting: 'hello' } },
  });
  console.log(JSON.stringify({ step: 'create', uid: created.metadata.uid }));
  const read = await core.readNamespacedConfigMap({ name, namespace });
  console.log(JSON.stringify({ step: 'read', uid: read.metadata.uid, data: read.data }));
  await core.deleteNamespacedConfigMap({ name, namespace });
  console.log(JSON.stringify({ step: 'delete' }));
} catch (e) {
  console.log(JSON.stringify({ error: String(e && e.message ? e.message : e) }));
  process.exit(1);
}
