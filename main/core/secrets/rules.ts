import { checkCliPassword, checkCurlHeader, checkCurlUser, checkProseCredential, checkDatabaseUrl, checkKeyedPassword, checkKeyedToken, checkOtherUrl, checkVendorKey } from './generic-checks.js';
import { checkBasicAuthValue, checkDockerAuth, checkJwt, checkKubernetesSecretData } from './structured-checks.js';
import type { RuleMatch, SecretRule } from './secret-rule.js';

/**
 * The rules table: the credential families of gitleaks' default configuration (MIT) that turn up in
 * notes, rewritten for JavaScript's engine. Every quantifier is bounded so a hostile 1 MB line costs
 * linear time; ids follow gitleaks' where one exists.
 */

// `KEY = value`, `"key": "value"`, `key: value`, `KEY=value`, `| key | value |`, `-H "Key: value"`, and the
// other ways code and config assign: Makefile `:::=`/`?=`, PHP `.=`, a typed declaration (`var x string =`,
// `let x: &str =`, `const string X =`), a setter call (`setProperty("KEY", "…")`, `define('KEY', '…')`),
// .NET `key="KEY" value="…"`, a Kubernetes `env` entry (`- name: KEY` then `value: …`) and an XML
// element whose value may sit on its own line (`<apiToken>` newline value).
const operator = `(?:=|:=|::=|:::=|\\.=|\\+=|:|=>|\\?=|\\|)`;
// The type name is matched atomically (lookahead + backreference), so a keyword in prose followed by a
// word (`the key rotation`) costs one attempt, not one per prefix of that word.
const typeAnnotation = `(?:[ \\t]{0,2}:)?[ \\t]{1,4}[&*]?(?=(?<type>[A-Za-z][\\w.]{0,24}))\\k<type>(?:\\[\\])?[ \\t]{0,4}(?:=|:=)`;
const assignment =
  `(?:["'\`]?\\]?[ \\t]{0,4}${operator}|${typeAnnotation}|["'][ \\t]{0,4},|["'][ \\t]{1,4}value[ \\t]{0,2}=|["']?[ \\t]{0,4}\\r?\\n[ \\t]{0,16}value:|>[ \\t]{0,4}(?:\\r?\\n[ \\t]{0,16})?)[ \\t]{0,4}["'\`]?`;
const after = `(?![\\w+/=-])`;

function keyed(context: string, value: string, end = after): RegExp {
  return new RegExp(`(?<key>${context})(?<suffix>[\\w.-]{0,24}?)${assignment}(?<secret>${value})${end}`, 'gi');
}

function prefixed(body: string, flags = 'g'): RegExp {
  return new RegExp(`\\b(?<secret>${body})${after}`, flags);
}

type Row = Omit<SecretRule, 'regex' | 'keywords'> & { regex: RegExp; keywords?: string[] };

function decodeBase64Url(part: string): string {
  return Buffer.from(part.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
}

// A Discord bot token starts with the bot's numeric user id in base64.
function checkDiscordToken(match: RuleMatch): boolean {
  const id = decodeBase64Url(match.secret.split('.')[0] ?? '');
  return /^\d{17,20}$/.test(id);
}

// An Azure storage key (88 base64 characters ending `==`) outside a connection string: only with Azure
// named within two lines, and not where such a string is a public key or a package integrity hash.
function checkAzureKeyNearName(match: RuleMatch): boolean {
  const lineStart = match.text.lastIndexOf('\n', match.index - 1) + 1;
  const lineEnd = match.text.indexOf('\n', match.index);
  const line = match.text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
  if (/public[ _-]?keys?|sha512-|integrity|ssh-/i.test(line)) return false;
  const before = match.text.slice(0, lineStart).split('\n').slice(-3).join('\n');
  const after = lineEnd === -1 ? '' : match.text.slice(lineEnd + 1).split('\n').slice(0, 2).join('\n');
  return /azure/i.test(`${before}\n${line}\n${after}`);
}

// Azure SAS signatures only mean something next to the other SAS parameters.
function checkAzureSas(match: RuleMatch): boolean {
  const around = match.text.slice(Math.max(0, match.index - 400), match.index + 400);
  return /[?&]sv=\d{4}-\d{2}-\d{2}/.test(around);
}

const urlWithPassword = /:\/\/(?<user>[^\s:/@'"`<>]{0,100}):(?<secret>[^\s@/'"`<>]{1,200})@(?<host>[^\s/@'"`<>?#]{1,253})/g;

const rows: Row[] = [
  // Cloud providers.
  { id: 'aws-access-token', family: 'cloud', description: 'AWS access key id', regex: prefixed('(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}'), keywords: ['a3t', 'akia', 'asia', 'abia', 'acca'], entropy: 3 },
  { id: 'aws-secret-access-key', family: 'cloud', description: 'AWS secret access key next to its name', regex: keyed('aws[_.-]?secret[_.-]?(?:access[_.-]?)?key|secret[_.-]?access[_.-]?key|aws[_.-]?secret', '[A-Za-z0-9/+]{40}'), keywords: ['secret'], entropy: 4 },
  { id: 'gcp-api-key', family: 'cloud', description: 'Google Cloud API key', regex: prefixed('AIza[\\w-]{35}'), keywords: ['aiza'], entropy: 3 },
  { id: 'gcp-service-account', family: 'cloud', description: 'Google service-account key file', regex: /"private_key_id"[ \t]{0,4}:[ \t]{0,4}"(?<secret>[a-f0-9]{40})"/g, keywords: ['private_key_id'], entropy: 3 },
  { id: 'azure-storage-account-key', family: 'cloud', description: 'Azure storage connection string', regex: /AccountKey=(?<secret>[A-Za-z0-9+/]{86}==)/gi, keywords: ['accountkey='], entropy: 4 },
  { id: 'azure-storage-key-near-name', family: 'cloud', description: 'Azure storage account key near the word Azure', regex: /(?<![\w+/=-])(?<secret>[A-Za-z0-9+/]{86}==)(?![\w+/=])/g, keywords: ['azure'], entropy: 4.5, check: checkAzureKeyNearName },
  { id: 'azure-shared-access-key', family: 'cloud', description: 'Azure Service Bus / Event Hubs connection string', regex: /SharedAccessKey=(?<secret>[A-Za-z0-9+/]{43}=)/gi, keywords: ['sharedaccesskey='], entropy: 4 },
  { id: 'azure-sas-token', family: 'cloud', description: 'Azure shared access signature', regex: /[?&]sig=(?<secret>[A-Za-z0-9%+/]{40,120})(?![A-Za-z0-9%+/])/g, keywords: ['sig='], entropy: 4, check: checkAzureSas },
  { id: 'azure-ad-client-secret', family: 'cloud', description: 'Azure AD client secret', regex: /(?<![\w~.-])(?<secret>[a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})(?![\w~.-])/g, keywords: ['q~'], entropy: 3 },
  { id: 'digitalocean-pat', family: 'cloud', description: 'DigitalOcean personal access token', regex: prefixed('dop_v1_[a-f0-9]{64}'), keywords: ['dop_v1_'], entropy: 3 },
  { id: 'digitalocean-access-token', family: 'cloud', description: 'DigitalOcean OAuth access token', regex: prefixed('doo_v1_[a-f0-9]{64}'), keywords: ['doo_v1_'], entropy: 3 },
  { id: 'digitalocean-refresh-token', family: 'cloud', description: 'DigitalOcean OAuth refresh token', regex: prefixed('dor_v1_[a-f0-9]{64}'), keywords: ['dor_v1_'], entropy: 3 },
  { id: 'heroku-api-key', family: 'cloud', description: 'Heroku API key next to its name', regex: keyed('heroku', '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'), keywords: ['heroku'], entropy: 3 },
  { id: 'heroku-api-key-v2', family: 'cloud', description: 'Heroku API key', regex: prefixed('HRKU-AA[0-9a-zA-Z_-]{58}'), keywords: ['hrku-aa'], entropy: 3 },
  { id: 'alibaba-access-key-id', family: 'cloud', description: 'Alibaba Cloud access key id', regex: prefixed('LTAI[a-zA-Z0-9]{20}'), keywords: ['ltai'], entropy: 3 },
  { id: 'alibaba-secret-key', family: 'cloud', description: 'Alibaba Cloud secret next to its name', regex: keyed('alibaba|aliyun|alicloud', '[a-zA-Z0-9]{30}'), keywords: ['alibaba', 'aliyun', 'alicloud'], entropy: 3.5 },
  { id: 'hashicorp-tf-api-token', family: 'cloud', description: 'Terraform Cloud API token', regex: /\b(?<secret>[a-z0-9]{14}\.atlasv1\.[a-z0-9_=-]{60,70})(?![\w=-])/gi, keywords: ['atlasv1'], entropy: 3.5 },
  { id: 'vault-service-token', family: 'cloud', description: 'HashiCorp Vault service token', regex: prefixed('hvs\\.[\\w-]{90,120}'), keywords: ['hvs.'], entropy: 3.5 },
  { id: 'cloudflare-origin-ca-key', family: 'cloud', description: 'Cloudflare origin CA key', regex: prefixed('v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}'), keywords: ['v1.0-'], entropy: 3 },
  { id: 'cloudflare-api-key', family: 'cloud', description: 'Cloudflare API token or global key next to its name', regex: keyed('cloudflare|cf[_.-]?api', '[\\w-]{40}|[a-f0-9]{37}'), keywords: ['cloudflare', 'cf_api', 'cf-api', 'cf.api', 'cfapi'], entropy: 3.3, check: checkVendorKey },
  { id: 'ibm-cloud-api-key', family: 'cloud', description: 'IBM Cloud API key next to its name', regex: keyed('ibm[_.-]?cloud|ibmcloud|bluemix', '[\\w-]{44}'), keywords: ['ibm', 'bluemix'], entropy: 3.5, check: checkVendorKey },
  { id: 'ibm-cos-hmac-secret', family: 'cloud', description: 'IBM Cloud Object Storage HMAC secret', regex: keyed('secret[_.-]?access[_.-]?key', '[a-f0-9]{48}'), keywords: ['secret'], entropy: 3 },
  { id: 'softlayer-api-key', family: 'cloud', description: 'SoftLayer API key next to its name', regex: keyed('softlayer|sl[_.-]?api', '[a-f0-9]{64}'), keywords: ['softlayer', 'sl_api', 'sl-api', 'sl.api', 'slapi'], entropy: 3, check: checkVendorKey },
  { id: 'cloudant-credential', family: 'cloud', description: 'IBM Cloudant password or API key next to its name', regex: keyed('cloudant', '[a-f0-9]{64}|[\\w-]{44}'), keywords: ['cloudant'], entropy: 3.3, check: checkVendorKey },
  {
    id: 'kubernetes-secret-data',
    family: 'cloud',
    description: 'base64 value in the data of a Kubernetes Secret',
    regex: /^[ \t]{1,8}["']?(?<name>[\w.-]{1,100})["']?:[ \t]{1,4}["']?(?<secret>[A-Za-z0-9+/]{8,2000}={0,2})["']?[ \t]{0,8}$/gm,
    keywords: ['kind: secret', 'kind: "secret"'],
    check: checkKubernetesSecretData,
  },
  { id: 'flyio-access-token', family: 'cloud', description: 'Fly.io access token', regex: prefixed('fo1_[\\w-]{43}'), keywords: ['fo1_'], entropy: 3.5 },

  // AI providers.
  { id: 'anthropic-api-key', family: 'ai', description: 'Anthropic API key', regex: prefixed('sk-ant-api03-[\\w-]{93}AA'), keywords: ['sk-ant-api03-'], entropy: 3.5 },
  { id: 'anthropic-admin-api-key', family: 'ai', description: 'Anthropic admin API key', regex: prefixed('sk-ant-admin01-[\\w-]{93}AA'), keywords: ['sk-ant-admin01-'], entropy: 3.5 },
  { id: 'openai-api-key', family: 'ai', description: 'OpenAI API key', regex: prefixed('sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,200}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{48})'), keywords: ['sk-'], entropy: 3.5 },
  { id: 'huggingface-access-token', family: 'ai', description: 'Hugging Face access token', regex: prefixed('hf_[a-zA-Z]{34}'), keywords: ['hf_'], entropy: 3 },
  { id: 'huggingface-organization-api-token', family: 'ai', description: 'Hugging Face organization token', regex: prefixed('api_org_[a-zA-Z]{34}'), keywords: ['api_org_'], entropy: 3 },
  { id: 'replicate-api-token', family: 'ai', description: 'Replicate API token', regex: prefixed('r8_[A-Za-z0-9]{37}'), keywords: ['r8_'], entropy: 3 },
  { id: 'groq-api-key', family: 'ai', description: 'Groq API key', regex: prefixed('gsk_[A-Za-z0-9]{52}'), keywords: ['gsk_'], entropy: 3.5 },
  { id: 'perplexity-api-key', family: 'ai', description: 'Perplexity API key', regex: prefixed('pplx-[A-Za-z0-9]{48}'), keywords: ['pplx-'], entropy: 3.5 },
  { id: 'cohere-api-token', family: 'ai', description: 'Cohere API key next to its name', regex: keyed('cohere|co_api_key', '[a-zA-Z0-9]{40}'), keywords: ['cohere', 'co_api_key'], entropy: 3.5 },
  { id: 'mistral-api-key', family: 'ai', description: 'Mistral API key next to its name', regex: keyed('mistral', '[a-zA-Z0-9]{32}'), keywords: ['mistral'], entropy: 3.5 },

  // VCS hosts.
  { id: 'github-pat', family: 'vcs', description: 'GitHub personal access token', regex: prefixed('ghp_[0-9a-zA-Z]{36}'), keywords: ['ghp_'], entropy: 3 },
  { id: 'github-oauth', family: 'vcs', description: 'GitHub OAuth access token', regex: prefixed('gho_[0-9a-zA-Z]{36}'), keywords: ['gho_'], entropy: 3 },
  { id: 'github-app-token', family: 'vcs', description: 'GitHub app token', regex: prefixed('(?:ghu|ghs)_[0-9a-zA-Z]{36}'), keywords: ['ghu_', 'ghs_'], entropy: 3 },
  { id: 'github-refresh-token', family: 'vcs', description: 'GitHub refresh token', regex: prefixed('ghr_[0-9a-zA-Z]{36}'), keywords: ['ghr_'], entropy: 3 },
  { id: 'github-fine-grained-pat', family: 'vcs', description: 'GitHub fine-grained token', regex: prefixed('github_pat_\\w{82}'), keywords: ['github_pat_'], entropy: 3 },
  { id: 'gitlab-pat', family: 'vcs', description: 'GitLab personal access token', regex: prefixed('glpat-[\\w-]{20,120}(?:\\.[\\w-]{2,20}){0,2}'), keywords: ['glpat-'], entropy: 3 },
  { id: 'gitlab-deploy-token', family: 'vcs', description: 'GitLab deploy token', regex: prefixed('gldt-[\\w-]{20,120}'), keywords: ['gldt-'], entropy: 3 },
  { id: 'gitlab-runner-authentication-token', family: 'vcs', description: 'GitLab runner token', regex: prefixed('glrt-[\\w-]{20,120}(?:\\.[\\w-]{2,20}){0,2}'), keywords: ['glrt-'], entropy: 3 },
  { id: 'gitlab-ptt', family: 'vcs', description: 'GitLab pipeline trigger token', regex: prefixed('glptt-[0-9a-f]{40}'), keywords: ['glptt-'], entropy: 3 },
  { id: 'gitlab-feed-token', family: 'vcs', description: 'GitLab feed token', regex: prefixed('glft-[\\w-]{20,120}'), keywords: ['glft-'], entropy: 3 },
  { id: 'gitlab-other-token', family: 'vcs', description: 'GitLab service account, CI job, incoming mail, agent or feature flag token', regex: prefixed('gl(?:soat|cbt|imt|agent|ffct)-[\\w-]{20,60}'), keywords: ['glsoat-', 'glcbt-', 'glimt-', 'glagent-', 'glffct-'], entropy: 3 },
  { id: 'gitlab-oauth-app-secret', family: 'vcs', description: 'GitLab OAuth application secret', regex: prefixed('gloas-[\\w-]{64}'), keywords: ['gloas-'], entropy: 3 },
  { id: 'bitbucket-app-password', family: 'vcs', description: 'Bitbucket app password', regex: prefixed('ATBB[A-Za-z0-9_=.-]{28,64}'), keywords: ['atbb'], entropy: 3.5 },
  { id: 'atlassian-api-token', family: 'vcs', description: 'Atlassian API token', regex: prefixed('ATATT3[\\w=-]{150,250}'), keywords: ['atatt3'], entropy: 3.5 },
  { id: 'bitbucket-client-secret', family: 'vcs', description: 'Bitbucket OAuth secret next to its name', regex: keyed('bitbucket', '[a-zA-Z0-9=_-]{64}'), keywords: ['bitbucket'], entropy: 3.5 },

  // Chat.
  { id: 'slack-bot-token', family: 'chat', description: 'Slack bot token', regex: prefixed('xoxb-[0-9]{8,13}-(?:[0-9]{8,13}-?[a-zA-Z0-9-]{0,48}|[a-zA-Z0-9]{24,34})'), keywords: ['xoxb-'], entropy: 3 },
  { id: 'slack-user-token', family: 'chat', description: 'Slack user token', regex: prefixed('xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}'), keywords: ['xoxp-', 'xoxe-'], entropy: 3 },
  { id: 'slack-app-token', family: 'chat', description: 'Slack app-level token', regex: prefixed('xapp-\\d-[A-Z0-9]{8,16}-\\d{8,16}-[a-z0-9]{32,80}', 'gi'), keywords: ['xapp-'], entropy: 3 },
  { id: 'slack-config-access-token', family: 'chat', description: 'Slack configuration token', regex: prefixed('xoxe\\.xox[bp]-\\d-[A-Z0-9]{150,180}', 'gi'), keywords: ['xoxe.'], entropy: 3 },
  { id: 'slack-legacy-workspace-token', family: 'chat', description: 'Slack legacy workspace or session token', regex: prefixed('xox[aors]-(?:\\d-)?[0-9]{8,13}(?:-[0-9]{8,13}){1,3}-[a-zA-Z0-9]{32,64}'), keywords: ['xoxa-', 'xoxo-', 'xoxr-', 'xoxs-'], entropy: 3 },
  // The first tokens Slack issued (test, bot and user tokens of 2014–2016): digits, then a hex tail.
  { id: 'slack-legacy-token', family: 'chat', description: 'Slack legacy token', regex: prefixed('xox[abposr]-(?:\\d-)?\\d{5,13}(?:-\\d{5,13}){0,3}-[a-f0-9]{16,40}'), keywords: ['xoxa-', 'xoxb-', 'xoxo-', 'xoxp-', 'xoxr-', 'xoxs-'], entropy: 3 },
  { id: 'slack-config-refresh-token', family: 'chat', description: 'Slack configuration refresh token', regex: prefixed('xoxe-\\d-[A-Za-z0-9]{140,180}'), keywords: ['xoxe-'], entropy: 3.5 },
  { id: 'microsoft-teams-webhook', family: 'chat', description: 'Microsoft Teams incoming webhook', regex: /https:\/\/[\w-]{1,60}\.webhook\.office\.com\/webhookb2\/[\da-f-]{36}@[\da-f-]{36}\/IncomingWebhook\/(?<secret>[\da-f]{32})\/[\da-f-]{36}/g, keywords: ['webhook.office.com'], entropy: 3 },
  { id: 'slack-webhook-url', family: 'chat', description: 'Slack incoming webhook', regex: /hooks\.slack\.com\/(?:services|workflows|triggers)\/(?<secret>[A-Za-z0-9+/]{43,56})(?![A-Za-z0-9+/])/g, keywords: ['hooks.slack.com'], entropy: 3.5 },
  { id: 'discord-bot-token', family: 'chat', description: 'Discord bot token', regex: prefixed('[MNO][A-Za-z0-9_-]{22,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}'), entropy: 3, check: checkDiscordToken },
  { id: 'discord-webhook-url', family: 'chat', description: 'Discord webhook', regex: /discord(?:app)?\.com\/api\/webhooks\/\d{17,20}\/(?<secret>[\w-]{60,72})(?![\w-])/g, keywords: ['discord'], entropy: 3.5 },
  { id: 'telegram-bot-api-token', family: 'chat', description: 'Telegram bot token', regex: new RegExp(`(?:\\b|(?<=\\bbot))(?<secret>\\d{8,10}:AA[\\w-]{33})${after}`, 'g'), keywords: [':aa'], entropy: 3 },
  { id: 'twilio-api-key', family: 'chat', description: 'Twilio API key', regex: prefixed('SK[0-9a-fA-F]{32}'), keywords: ['sk'], entropy: 3 },
  { id: 'sendgrid-api-token', family: 'chat', description: 'SendGrid API key', regex: prefixed('SG\\.[\\w-]{22}\\.[\\w-]{43}'), keywords: ['sg.'], entropy: 3.5 },
  { id: 'mailgun-private-api-token', family: 'chat', description: 'Mailgun private key', regex: prefixed('key-[a-f0-9]{32}'), keywords: ['key-'], entropy: 3 },
  { id: 'mailchimp-api-key', family: 'chat', description: 'Mailchimp API key', regex: prefixed('[a-f0-9]{32}-us\\d{1,2}'), keywords: ['-us'], entropy: 3 },

  // Payments.
  { id: 'stripe-access-token', family: 'payments', description: 'Stripe secret or restricted key', regex: prefixed('(?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99}'), keywords: ['sk_test_', 'sk_live_', 'sk_prod_', 'rk_test_', 'rk_live_', 'rk_prod_'], entropy: 3 },
  { id: 'stripe-webhook-secret', family: 'payments', description: 'Stripe webhook signing secret', regex: prefixed('whsec_[a-zA-Z0-9]{32,64}'), keywords: ['whsec_'], entropy: 3.5 },
  { id: 'square-access-token', family: 'payments', description: 'Square access token', regex: prefixed('(?:EAAA|sq0atp-)[\\w-]{22,60}'), keywords: ['eaaa', 'sq0atp-'], entropy: 3 },
  { id: 'square-secret', family: 'payments', description: 'Square application secret', regex: prefixed('sq0csp-[\\w-]{43}'), keywords: ['sq0csp-'], entropy: 3 },
  { id: 'paypal-braintree-access-token', family: 'payments', description: 'PayPal Braintree access token', regex: /access_token\$production\$(?<secret>[0-9a-z]{16}\$[0-9a-f]{32})\b/g, keywords: ['access_token$production$'], entropy: 3 },
  { id: 'shopify-access-token', family: 'payments', description: 'Shopify access token', regex: prefixed('shp(?:at|ca|pa)_[a-fA-F0-9]{32}'), keywords: ['shpat_', 'shpca_', 'shppa_'], entropy: 3 },
  { id: 'shopify-shared-secret', family: 'payments', description: 'Shopify shared secret', regex: prefixed('shpss_[a-fA-F0-9]{32}'), keywords: ['shpss_'], entropy: 3 },

  // Package registries.
  { id: 'npm-access-token', family: 'registry', description: 'npm access token', regex: prefixed('npm_[a-zA-Z0-9]{36}'), keywords: ['npm_'], entropy: 3 },
  { id: 'pypi-upload-token', family: 'registry', description: 'PyPI upload token', regex: prefixed('pypi-AgEIcHlwaS5vcmc[\\w-]{50,1000}'), keywords: ['pypi-ageichlwas5vcmc'], entropy: 3 },
  { id: 'rubygems-api-token', family: 'registry', description: 'RubyGems API key', regex: prefixed('rubygems_[a-f0-9]{48}'), keywords: ['rubygems_'], entropy: 3 },
  { id: 'nuget-api-key', family: 'registry', description: 'NuGet API key', regex: prefixed('oy2[a-z0-9]{43}'), keywords: ['oy2'], entropy: 3.5 },
  { id: 'dockerhub-pat', family: 'registry', description: 'Docker Hub personal access token', regex: prefixed('dckr_pat_[\\w-]{27}'), keywords: ['dckr_pat_'], entropy: 3 },
  { id: 'jfrog-reference-token', family: 'registry', description: 'JFrog Artifactory reference token', regex: prefixed('cmVmdGtuOjAxOj[A-Za-z0-9+/]{36,80}={0,2}'), keywords: ['cmvmdgtuojaxoj'], entropy: 3.5 },
  {
    id: 'docker-config-auth',
    family: 'registry',
    description: 'registry credentials in a Docker config auths entry',
    regex: /\\?"auth\\?"[ \t]{0,4}:[ \t]{0,4}\\?"(?<secret>[A-Za-z0-9+/]{8,1000}={0,2})\\?"/g,
    keywords: ['"auth'],
    check: checkDockerAuth,
  },
  { id: 'clojars-api-token', family: 'registry', description: 'Clojars deploy token', regex: prefixed('CLOJARS_[a-z0-9]{60}', 'gi'), keywords: ['clojars_'], entropy: 3 },
  { id: 'jfrog-api-key', family: 'registry', description: 'JFrog Artifactory API key', regex: prefixed('AKCp[A-Za-z0-9]{69}'), keywords: ['akcp'], entropy: 3.5 },

  // Observability and developer tooling.
  { id: 'datadog-access-token', family: 'observability', description: 'Datadog API or application key next to its name', regex: keyed('datadog|dd[_.-]?(?:api|app|application|client)', '[a-f0-9]{40}|[a-f0-9]{32}'), keywords: ['datadog', 'dd_api', 'dd-api', 'dd_app', 'dd-app', 'dd_client', 'dd-client', 'dd.api', 'dd.app', 'ddapi', 'ddapp'], entropy: 3 },
  { id: 'new-relic-user-api-key', family: 'observability', description: 'New Relic user API key', regex: prefixed('NRAK-[A-Z0-9]{27}'), keywords: ['nrak-'], entropy: 3 },
  { id: 'new-relic-insert-key', family: 'observability', description: 'New Relic insert key', regex: prefixed('NRII-[\\w-]{32}'), keywords: ['nrii-'], entropy: 3 },
  { id: 'new-relic-browser-api-token', family: 'observability', description: 'New Relic browser token', regex: prefixed('NRJS-[a-f0-9]{19}'), keywords: ['nrjs-'], entropy: 3 },
  { id: 'new-relic-license-key', family: 'observability', description: 'New Relic license key', regex: prefixed('[a-f0-9]{36}NRAL'), keywords: ['nral'], entropy: 3 },
  { id: 'sentry-user-token', family: 'observability', description: 'Sentry user auth token', regex: prefixed('sntryu_[a-f0-9]{64}'), keywords: ['sntryu_'], entropy: 3 },
  { id: 'sentry-org-token', family: 'observability', description: 'Sentry organization token', regex: /\b(?<secret>sntrys_eyJpYXQiO[A-Za-z0-9+/]{10,300}={0,2}_[A-Za-z0-9+/]{43})(?![A-Za-z0-9+/])/g, keywords: ['sntrys_'], entropy: 3.5 },
  { id: 'sentry-dsn', family: 'observability', description: 'Sentry DSN key', regex: /https?:\/\/(?<secret>[a-f0-9]{32})(?::[a-f0-9]{32})?@(?:[\w-]{1,63}\.){0,6}(?:sentry|ingest)[\w.-]{0,100}(?::\d{1,5})?\/\d{1,12}/g, keywords: ['sentry', 'ingest'], entropy: 3 },
  { id: 'grafana-cloud-api-token', family: 'observability', description: 'Grafana Cloud token', regex: /\b(?<secret>glc_[A-Za-z0-9+/]{32,400}={0,2})(?![A-Za-z0-9+/=])/g, keywords: ['glc_'], entropy: 3.5 },
  { id: 'grafana-service-account-token', family: 'observability', description: 'Grafana service-account token', regex: prefixed('glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}'), keywords: ['glsa_'], entropy: 3.5 },
  { id: 'grafana-api-key', family: 'observability', description: 'Grafana API key', regex: /\b(?<secret>eyJrIjoi[A-Za-z0-9]{70,400}={0,2})(?![A-Za-z0-9=])/g, keywords: ['eyjrijoi'], entropy: 3.5 },
  { id: 'sumologic-access-id', family: 'observability', description: 'Sumo Logic access id next to its name', regex: keyed('sumo', 'su[a-zA-Z0-9]{12}'), keywords: ['sumo'], entropy: 3 },
  { id: 'sumologic-access-token', family: 'observability', description: 'Sumo Logic access key next to its name', regex: keyed('sumo', '[a-zA-Z0-9]{64}'), keywords: ['sumo'], entropy: 3.5, check: checkVendorKey },
  { id: 'dynatrace-api-token', family: 'observability', description: 'Dynatrace API token', regex: prefixed('dt0c01\\.[A-Z0-9]{24}\\.[A-Z0-9]{64}'), keywords: ['dt0c01.'], entropy: 3.5 },
  { id: 'snyk-api-token', family: 'dev-tooling', description: 'Snyk API token next to its name', regex: keyed('snyk', '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'), keywords: ['snyk'], entropy: 3, check: checkVendorKey },
  { id: 'sonar-api-token', family: 'dev-tooling', description: 'SonarQube token', regex: prefixed('sq[pua]_[a-f0-9]{40}'), keywords: ['sqp_', 'squ_', 'sqa_'], entropy: 3 },
  { id: 'sonar-keyed-token', family: 'dev-tooling', description: 'SonarCloud token next to its name', regex: keyed('sonar', '[a-f0-9]{40}'), keywords: ['sonar'], entropy: 3, check: checkVendorKey },
  { id: 'notion-api-token', family: 'dev-tooling', description: 'Notion integration token', regex: prefixed('ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43}'), keywords: ['ntn_', 'secret_'], entropy: 3.5 },
  { id: 'langsmith-api-key', family: 'ai', description: 'LangSmith API key', regex: prefixed('lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}'), keywords: ['lsv2_'], entropy: 3 },
  { id: 'dotenv-private-key', family: 'private-key', description: 'dotenvx private decryption key', regex: keyed('dotenv[_.-]?private[_.-]?key', '[a-f0-9]{64}'), keywords: ['dotenv'], entropy: 3 },
  { id: 'databricks-api-token', family: 'dev-tooling', description: 'Databricks API token', regex: prefixed('dapi[a-f0-9]{32}(?:-\\d)?'), keywords: ['dapi'], entropy: 3 },
  { id: 'pulumi-api-token', family: 'dev-tooling', description: 'Pulumi API token', regex: prefixed('pul-[a-f0-9]{40}'), keywords: ['pul-'], entropy: 3 },
  { id: 'postman-api-token', family: 'dev-tooling', description: 'Postman API key', regex: prefixed('PMAK-[a-f0-9]{24}-[a-f0-9]{34}', 'gi'), keywords: ['pmak-'], entropy: 3 },
  { id: 'doppler-api-token', family: 'dev-tooling', description: 'Doppler token', regex: prefixed('dp\\.pt\\.[a-zA-Z0-9]{43}'), keywords: ['dp.pt.'], entropy: 3.5 },
  { id: 'linear-api-key', family: 'dev-tooling', description: 'Linear API key', regex: prefixed('lin_api_[a-zA-Z0-9]{40}'), keywords: ['lin_api_'], entropy: 3.5 },
  { id: 'age-secret-key', family: 'dev-tooling', description: 'age encryption secret key', regex: /\b(?<secret>AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})\b/g, keywords: ['age-secret-key-1'], entropy: 3 },

  // Private keys, tokens with structure, connection strings.
  {
    id: 'private-key',
    family: 'private-key',
    description: 'PEM or OpenSSH/PGP private key block',
    // The body must follow the header (after optional `Proc-Type:`-style lines, also as `\n` in JSON):
    // a header alone, or one with `...` for a body, is documentation.
    regex: /-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:\\r|\\n|\s|[A-Za-z-]{1,30}: [^\n\\]{0,100}){0,12}?(?<secret>[A-Za-z0-9+/=]{40,120})/gi,
    keywords: ['private key'],
    entropy: 4,
    reportMatchStart: true,
    blockRest: /[A-Za-z0-9+/=]{0,4096}(?:(?:\r?\n|(?:\\r)?\\n)[ \t]{0,8}[A-Za-z0-9+/=]{1,4096}(?![^\r\n\\"'])){0,400}(?:(?:\r?\n|(?:\\r)?\\n)[ \t]{0,8}-----END[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----)?/y,
  },
  { id: 'jwt', family: 'jwt', description: 'JSON Web Token', regex: /\b(?<secret>e[wy][A-Za-z0-9_-]{15,600}\.(?:e[wy][A-Za-z0-9_-]{10,4000}\.[A-Za-z0-9_-]{0,1000}|[A-Za-z0-9_-]{0,1000}\.[A-Za-z0-9_-]{8,100}\.[A-Za-z0-9_-]{16,8000}\.[A-Za-z0-9_-]{8,100}))/g, keywords: ['eyj', 'eya', 'ewo', 'ew0', 'ewk'], check: checkJwt },
  { id: 'database-connection-string', family: 'connection-string', description: 'database URL with a password', regex: urlWithPassword, keywords: ['://'], check: checkDatabaseUrl },
  { id: 'url-with-password', family: 'connection-string', description: 'URL with a password', regex: new RegExp(urlWithPassword.source, 'g'), keywords: ['://'], check: checkOtherUrl },

  // Context-keyed catch-alls, after gitleaks' generic-api-key: the key names a secret, the value is not a word.
  {
    id: 'generic-password',
    family: 'generic',
    description: 'password assigned in configuration or code',
    regex: keyed('passw(?:or)?d|passwd|pwd|passphrase|pass', '[^\\s"\'`,;&<>|]{6,200}', ''),
    keywords: ['pass', 'pwd'],
    entropy: 2.3,
    check: checkKeyedPassword,
    generic: true,
  },
  {
    id: 'generic-api-key',
    family: 'generic',
    description: 'API key, token or secret assigned in configuration or code',
    regex: keyed('api[_.-]?key|apikey|secret|token|credentials?|key', '[^\\s"\'`,;&<>|]{12,300}', ''),
    keywords: ['key', 'secret', 'token', 'credential'],
    entropy: 3.3,
    check: checkKeyedToken,
    generic: true,
  },
  {
    id: 'authorization-header',
    family: 'generic',
    description: 'credentials in an HTTP Authorization header',
    regex: /authorization["']?[ \t]{0,4}[:=][ \t]{0,4}["']?(?:bearer|basic|token|bot|apikey)[ \t]{1,4}(?<secret>[\w.~+/-]{16,600}={0,2})/gi,
    keywords: ['authorization'],
    entropy: 3,
    generic: true,
  },
  {
    id: 'cli-password-argument',
    family: 'generic',
    description: 'password on a database or SSH client command line',
    // `mysql -p SECRET` would prompt (the next word is the database), so mysql's password is attached.
    regex: /\b(?:(?:mysql(?:dump|admin|sh)?|mariadb)\b[^\n|;&]{0,200}?[ \t](?:-p|--password=)|(?:redis-cli|sshpass|mongosh?)\b[^\n|;&]{0,200}?[ \t](?:-a|-p|--pass(?:word)?)[ \t=])['"]?(?<secret>[^\s'"]{6,128})/g,
    keywords: ['mysql', 'mariadb', 'redis-cli', 'sshpass', 'mongo'],
    entropy: 2.3,
    check: checkCliPassword,
    generic: true,
  },
  {
    id: 'basic-auth-credentials',
    family: 'generic',
    description: 'base64 user:password under a Basic-auth name',
    regex: keyed('basic[_.-]?auth|http[_.-]?auth|auth[_.-]?basic', '[A-Za-z0-9+/]{8,400}={0,2}'),
    keywords: ['basic', 'http_auth', 'http-auth', 'httpauth'],
    check: checkBasicAuthValue,
    generic: true,
  },
  {
    id: 'curl-auth-user',
    family: 'generic',
    description: 'user:password passed to curl -u',
    // The user may be an email address and either part may be quoted; `-u "secret:"` is a token as the user.
    regex: /(?:^|[ \t])(?:-u|--user)[ \t=]{1,4}(?:["']?[^\s:"']{0,100}["']?:["']?|"(?=[^\s:"']{8,200}:"))(?<secret>[^\s"']{6,200})/g,
    keywords: ['-u ', '--user'],
    entropy: 2.3,
    check: checkCurlUser,
    generic: true,
  },
  {
    id: 'prose-credential',
    family: 'generic',
    description: 'credential named in a sentence, its value after a colon (or after `user /`)',
    // The name, a few words of prose without an assignment, a colon, then the value (or `user / value`).
    regex: /\b(?:token|secret|password|passphrase|credentials|api[ _-]?key)\b[^\n:="'`]{0,60}?:[ \t]{1,4}(?:[\w.@-]{1,40}[ \t]{1,2}\/[ \t]{1,2})?(?<secret>[^\s"'`<>]{10,200})/gi,
    keywords: ['token', 'secret', 'password', 'passphrase', 'credentials', 'api key', 'api_key', 'api-key', 'apikey'],
    entropy: 3.3,
    check: checkProseCredential,
    generic: true,
  },
  {
    id: 'curl-auth-header',
    family: 'generic',
    description: 'credential in a header passed to curl -H',
    // The header names a credential (Authorization, API key, token); the scheme word, if any, is skipped.
    regex: /\bcurl\b[^\n]{0,400}?(?:\\?\r?\n[^\n]{0,400}?){0,5}[ \t](?:-H|--header)[ \t=]{1,5}["'](?:authorization|(?:x-[a-z]{1,20}-)?api-?key|(?:x-)?(?:api-|auth-)?token)[ \t]{0,5}:[ \t]{0,5}(?:(?:bearer|basic|token|api-token|apikey)[ \t]{1,4})?(?<secret>[\w=~@.+/-]{8,600})["']/gi,
    keywords: ['curl'],
    entropy: 2.75,
    check: checkCurlHeader,
    generic: true,
  },
];

/** The table, in the order rules run; generic rules last. */
export const secretRules: readonly SecretRule[] = rows.map((row) => ({ ...row, keywords: row.keywords ?? [] }));
