import { hasCrc32Suffix } from './checksums.js';
import { checkVendorKey } from './generic-checks.js';
import { keyed, prefixed, type Row } from './rule-patterns.js';
import { checkKubernetesSecretData, decodesToKeyBytes } from './structured-checks.js';
import { checkAzureKeyNearName, checkAzureLegacySecret, checkAzureSas, mixedCaseAndDigit, serviceAccountKeyReal } from './vendor-checks.js';

/**
 * Cloud, AI and source-hosting credentials: the families of gitleaks' default configuration (MIT) that
 * turn up in notes, rewritten for JavaScript's engine; ids follow gitleaks' where one exists.
 */
export const platformRules: Row[] = [
  // Cloud providers.
  { id: 'aws-access-token', family: 'cloud', description: 'AWS access key id', regex: prefixed('(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}'), keywords: ['a3t', 'akia', 'asia', 'abia', 'acca'], entropy: 3 },
  { id: 'aws-secret-access-key', family: 'cloud', description: 'AWS secret access key next to its name', regex: keyed('aws[_.-]?secret[_.-]?(?:access[_.-]?)?key|secret[_.-]?access[_.-]?key|aws[_.-]?secret', '[A-Za-z0-9/+]{40}'), keywords: ['secret'], entropy: 4 },
  { id: 'gcp-api-key', family: 'cloud', description: 'Google Cloud API key', regex: prefixed('AIza[\\w-]{35}'), keywords: ['aiza'], entropy: 3 },
  { id: 'gcp-service-account', family: 'cloud', description: 'Google service-account key file', regex: /\\?"private_key_id\\?"[ \t]{0,4}:[ \t]{0,4}\\?"(?<secret>[a-f0-9]{40})\\?"/g, keywords: ['private_key_id'], entropy: 3, check: serviceAccountKeyReal },
  { id: 'azure-storage-account-key', family: 'cloud', description: 'Azure storage connection string', regex: /AccountKey=(?<secret>[A-Za-z0-9+/]{86}==)/gi, keywords: ['accountkey='], entropy: 4 },
  { id: 'azure-storage-key-near-name', family: 'cloud', description: 'Azure storage account key near the word Azure', regex: /(?<![\w+/=-])(?<secret>[A-Za-z0-9+/]{86}==)(?![\w+/=])/g, keywords: ['azure'], entropy: 4.5, check: checkAzureKeyNearName },
  { id: 'azure-shared-access-key', family: 'cloud', description: 'Azure Service Bus / Event Hubs connection string', regex: /SharedAccessKey=(?<secret>[A-Za-z0-9+/]{43}=)/gi, keywords: ['sharedaccesskey='], entropy: 4 },
  { id: 'azure-sas-token', family: 'cloud', description: 'Azure shared access signature', regex: /[?&]sig=(?<secret>[A-Za-z0-9%+/]{40,120})(?![A-Za-z0-9%+/])/g, keywords: ['sig='], entropy: 4, check: checkAzureSas },
  { id: 'azure-ad-client-secret', family: 'cloud', description: 'Azure AD client secret', regex: /(?<![\w~.-])(?<secret>[a-zA-Z0-9_~.-]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})(?![\w~.-])/g, keywords: ['q~'], entropy: 3 },
  // Azure AD app secrets before the `Q~` format: 32-34 characters of letters, digits and `_.~?@:[]-`, under a
  // secret or password name, with the app's client or tenant id (a UUID) close by.
  { id: 'azure-ad-client-secret-legacy', family: 'cloud', description: 'Azure AD client secret (pre-2021 format) near a client or tenant id', regex: /(?<key>(?:client|app(?:id)?|sp|azure[\w-]{0,16})?[_.-]?(?:secret|password))["']?[ \t]{0,32}(?::=|[:=])[ \t]{0,4}["']?(?<secret>[A-Za-z0-9_.~?@:[\]-]{32,34})(?![A-Za-z0-9_.~?@:[\]-])/gi, keywords: ['secret', 'password'], entropy: 3.8, check: checkAzureLegacySecret },
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
  // Cloudflare's scannable credentials (2025): user and account API tokens and the global API key, a prefix
  // then 40 characters and an 8-character checksum.
  { id: 'cloudflare-scannable-token', family: 'cloud', description: 'Cloudflare user or account API token, or global API key', regex: prefixed('cf(?:ut|at|k)_[A-Za-z0-9]{48}'), keywords: ['cfut_', 'cfat_', 'cfk_'], entropy: 3.5 },
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
    keywords: ['kind: secret', 'kind: "secret"', "kind: 'secret'"],
    certain: decodesToKeyBytes,
    check: checkKubernetesSecretData,
  },
  { id: 'flyio-access-token', family: 'cloud', description: 'Fly.io access token', regex: prefixed('fo1_[\\w-]{43}'), keywords: ['fo1_'], entropy: 3.5 },
  { id: 'openshift-user-token', family: 'cloud', description: 'OpenShift user token', regex: prefixed('sha256~[\\w-]{43}'), keywords: ['sha256~'], entropy: 3.5 },
  { id: 'vault-batch-token', family: 'cloud', description: 'HashiCorp Vault batch token', regex: prefixed('hvb\\.[\\w-]{138,300}'), keywords: ['hvb.'], entropy: 4 },
  { id: 'castai-api-key', family: 'cloud', description: 'Cast AI API key', regex: prefixed('castai_v1_[A-Za-z0-9]{64}_[A-Za-z0-9]{8}'), keywords: ['castai_v1_'], entropy: 3 },
  { id: 'datafactory-shir-token', family: 'cloud', description: 'Azure Data Factory integration runtime key', regex: /\b(?<secret>IR@[0-9a-zA-Z-]{36}@[^@\s]{1,80}@[0-9a-zA-Z=-]{0,80}@[A-Za-z0-9+/]{43}=)/g, keywords: ['ir@'], entropy: 3 },
  { id: 'onepassword-service-account-token', family: 'cloud', description: '1Password service-account token', regex: /\b(?<secret>ops_eyJ[A-Za-z0-9+/_-]{250,1500}={0,2})(?![A-Za-z0-9+/=_-])/g, keywords: ['ops_eyj'], entropy: 4 },
  { id: 'onepassword-secret-key', family: 'cloud', description: '1Password account secret key', regex: prefixed('A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})(?:-[A-Z0-9]{5}){3}'), keywords: ['a3-'], entropy: 3 },


  // AI providers.
  { id: 'anthropic-api-key', family: 'ai', description: 'Anthropic API key', regex: prefixed('sk-ant-api03-[\\w-]{93}AA'), keywords: ['sk-ant-api03-'], entropy: 3.5 },
  { id: 'anthropic-admin-api-key', family: 'ai', description: 'Anthropic admin API key', regex: prefixed('sk-ant-admin01-[\\w-]{93}AA'), keywords: ['sk-ant-admin01-'], entropy: 3.5 },
  { id: 'openai-api-key', family: 'ai', description: 'OpenAI API key', regex: prefixed('sk-(?:(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{10,100}T3BlbkFJ[A-Za-z0-9_-]{10,100}|[A-Za-z0-9_-]{80,200})|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{48})'), keywords: ['sk-'], entropy: 3.5 },
  { id: 'huggingface-access-token', family: 'ai', description: 'Hugging Face access token', regex: prefixed('hf_[a-zA-Z]{34}'), keywords: ['hf_'], entropy: 3 },
  { id: 'huggingface-organization-api-token', family: 'ai', description: 'Hugging Face organization token', regex: prefixed('api_org_[a-zA-Z]{34}'), keywords: ['api_org_'], entropy: 3 },
  { id: 'replicate-api-token', family: 'ai', description: 'Replicate API token', regex: prefixed('r8_[A-Za-z0-9]{37}'), keywords: ['r8_'], entropy: 3 },
  { id: 'groq-api-key', family: 'ai', description: 'Groq API key', regex: prefixed('gsk_[A-Za-z0-9]{48,56}'), keywords: ['gsk_'], entropy: 3.5 },
  { id: 'perplexity-api-key', family: 'ai', description: 'Perplexity API key', regex: prefixed('pplx-[A-Za-z0-9]{48}'), keywords: ['pplx-'], entropy: 3.5 },
  { id: 'cohere-api-token', family: 'ai', description: 'Cohere API key next to its name', regex: keyed('cohere|co_api_key', '[a-zA-Z0-9]{40}'), keywords: ['cohere', 'co_api_key'], entropy: 3.5 },
  { id: 'mistral-api-key', family: 'ai', description: 'Mistral API key next to its name', regex: keyed('mistral', '[a-zA-Z0-9]{32}'), keywords: ['mistral'], entropy: 3.5 },
  // xAI (Grok) API keys: `xai-` and 80 letters and digits.
  { id: 'xai-api-key', family: 'ai', description: 'xAI API key', regex: prefixed('xai-[A-Za-z0-9]{80}'), keywords: ['xai-'], entropy: 3.5 },
  { id: 'claude-code-oauth-token', family: 'ai', description: 'Claude Code OAuth token', regex: prefixed('sk-ant-oat01-[\\w-]{95}'), keywords: ['sk-ant-oat01-'], entropy: 3.5 },
  { id: 'claude-code-session-url', family: 'ai', description: 'Claude Code remote session link', regex: /\bhttps?:\/\/claude\.ai\/code\/(?<secret>session_[A-Za-z0-9]{16,64})\b/gi, keywords: ['claude.ai/code/session_'], entropy: 3.5 },
  { id: 'openrouter-api-key', family: 'ai', description: 'OpenRouter API key', regex: prefixed('sk-or-v\\d{1,2}-[a-f0-9]{64}'), keywords: ['sk-or-'], entropy: 3 },


  // VCS hosts.
  { id: 'github-pat', family: 'vcs', description: 'GitHub personal access token', regex: prefixed('ghp_[0-9a-zA-Z]{36}'), keywords: ['ghp_'], entropy: 3, certain: hasCrc32Suffix },
  { id: 'github-oauth', family: 'vcs', description: 'GitHub OAuth access token', regex: prefixed('gho_[0-9a-zA-Z]{36}'), keywords: ['gho_'], entropy: 3, certain: hasCrc32Suffix },
  { id: 'github-app-token', family: 'vcs', description: 'GitHub app token', regex: prefixed('(?:ghu|ghs)_[0-9a-zA-Z]{36}'), keywords: ['ghu_', 'ghs_'], entropy: 3, certain: hasCrc32Suffix },
  { id: 'github-refresh-token', family: 'vcs', description: 'GitHub refresh token', regex: prefixed('ghr_[0-9a-zA-Z]{36}'), keywords: ['ghr_'], entropy: 3, certain: hasCrc32Suffix },
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
  { id: 'atlassian-admin-api-key', family: 'vcs', description: 'Atlassian organization admin API key', regex: prefixed('ATCTT3xFfG[\\w=-]{20,250}'), keywords: ['atctt3xffg'], entropy: 3.5 },
  // Atlassian's first API tokens (Jira, Confluence) were 24 letters and digits, with no prefix: only next to the product's name.
  { id: 'jira-legacy-api-token', family: 'vcs', description: 'Jira or Confluence API token (24 characters) next to the product name', regex: /\b(?:jira|confluence|atlassian)[\w.-]{0,24}?(?:[ \t]{1,4}|["']?[ \t]{0,4}[:=][ \t]{0,4}["']?)(?<secret>[A-Za-z0-9]{24})(?![\w+/=-])/gi, keywords: ['jira', 'confluence', 'atlassian'], entropy: 3.5, check: mixedCaseAndDigit },
  { id: 'bitbucket-client-secret', family: 'vcs', description: 'Bitbucket OAuth secret next to its name', regex: keyed('bitbucket', '[a-zA-Z0-9=_-]{64}'), keywords: ['bitbucket'], entropy: 3.5 },

  { id: 'sourcegraph-access-token', family: 'vcs', description: 'Sourcegraph access token', regex: prefixed('sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}'), keywords: ['sgp_'], entropy: 3 },
];
