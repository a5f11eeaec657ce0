import { hasCrc32Suffix, isPypiMacaroon } from './checksums.js';
import { checkVendorKey } from './generic-checks.js';
import { after, keyed, prefixed, type Row } from './rule-patterns.js';
import { checkDockerAuth } from './structured-checks.js';
import { checkDiscordToken, hasDigit, hasLetterAndDigit, sumoAccessId, telegramNamed, webhookPathReal } from './vendor-checks.js';

/**
 * Chat, payments, package registries, observability and developer tooling: vendor-prefixed keys and
 * vendor-named values; ids follow gitleaks' where one exists.
 */
export const appRules: Row[] = [
  // Chat.
  { id: 'slack-bot-token', family: 'chat', description: 'Slack bot token', regex: prefixed('xoxb-[0-9]{8,13}-(?:[0-9]{8,13}-?[a-zA-Z0-9-]{0,48}|[a-zA-Z0-9]{24,34})'), keywords: ['xoxb-'], entropy: 3 },
  { id: 'slack-user-token', family: 'chat', description: 'Slack user token', regex: prefixed('xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}'), keywords: ['xoxp-', 'xoxe-'], entropy: 3 },
  { id: 'slack-app-token', family: 'chat', description: 'Slack app-level token', regex: prefixed('xapp-\\d-[A-Z0-9]{8,16}-\\d{8,16}-[a-z0-9]{32,80}', 'gi'), keywords: ['xapp-'], entropy: 3 },
  { id: 'slack-config-access-token', family: 'chat', description: 'Slack configuration token', regex: prefixed('xoxe\\.xox[bp]-\\d-[A-Z0-9]{150,180}', 'gi'), keywords: ['xoxe.'], entropy: 3 },
  { id: 'slack-legacy-workspace-token', family: 'chat', description: 'Slack legacy workspace or session token', regex: prefixed('xox[aors]-(?:\\d-)?[0-9]{8,13}(?:-[0-9]{8,13}){1,3}-[a-zA-Z0-9]{32,64}'), keywords: ['xoxa-', 'xoxo-', 'xoxr-', 'xoxs-'], entropy: 3 },
  // The first tokens Slack issued (test, bot and user tokens of 2014–2016): digits, then a hex tail.
  { id: 'slack-legacy-token', family: 'chat', description: 'Slack legacy token', regex: prefixed('xox[abposr]-(?:\\d-)?\\d{5,13}(?:-\\d{5,13}){0,3}-[a-f0-9]{10,64}'), keywords: ['xoxa-', 'xoxb-', 'xoxo-', 'xoxp-', 'xoxr-', 'xoxs-'], entropy: 3 },
  { id: 'slack-config-refresh-token', family: 'chat', description: 'Slack configuration refresh token', regex: prefixed('xoxe-\\d-[A-Za-z0-9]{140,180}'), keywords: ['xoxe-'], entropy: 3.5 },
  { id: 'microsoft-teams-webhook', family: 'chat', description: 'Microsoft Teams incoming webhook', regex: /https:\/\/[\w-]{1,60}\.webhook\.office\.com\/webhookb2\/[\w-]{36}@[\w-]{36}\/IncomingWebhook\/(?<secret>[\dA-Za-z]{32})\/[\w-]{36}(?![\w-])/g, keywords: ['webhook.office.com'], entropy: 3 },
  { id: 'slack-webhook-url', family: 'chat', description: 'Slack incoming webhook', regex: /hooks\.slack\.com\/(?:services|workflows|triggers)\/(?<secret>[A-Za-z0-9+/]{43,90})(?![A-Za-z0-9+/])/g, keywords: ['hooks.slack.com'], entropy: 3.5, check: webhookPathReal },
  // Slack's early workspace and refresh tokens (`xoxa-2-…`, `xoxr-…`) and short legacy bot tokens.
  { id: 'slack-legacy-short-token', family: 'chat', description: 'Slack legacy workspace, refresh or bot token', regex: prefixed('xox[ar]-(?:\\d-)?[0-9a-zA-Z]{10,48}|xoxb-[0-9]{8,14}-[a-zA-Z0-9]{18,26}'), keywords: ['xoxa-', 'xoxr-', 'xoxb-'], entropy: 3, check: hasLetterAndDigit },
  { id: 'telegram-bot-token-near-name', family: 'chat', description: 'Telegram bot token next to the word Telegram', regex: /(?<![\w:])(?<secret>\d{5,16}:A[\w-]{34})(?![\w-])/g, keywords: ['telegr'], entropy: 3, check: telegramNamed },
  { id: 'discord-bot-token', family: 'chat', description: 'Discord bot token', regex: prefixed('[MNO][A-Za-z0-9_-]{22,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}'), entropy: 3, check: checkDiscordToken },
  { id: 'discord-webhook-url', family: 'chat', description: 'Discord webhook', regex: /discord(?:app)?\.com\/api\/webhooks\/\d{17,20}\/(?<secret>[\w-]{60,72})(?![\w-])/g, keywords: ['discord'], entropy: 3.5 },
  { id: 'telegram-bot-api-token', family: 'chat', description: 'Telegram bot token', regex: new RegExp(`(?:\\b|(?<=\\bbot))(?<secret>\\d{8,10}:AA[\\w-]{33})${after}`, 'g'), keywords: [':aa'], entropy: 3 },
  { id: 'twilio-api-key', family: 'chat', description: 'Twilio API key', regex: prefixed('SK[0-9a-fA-F]{32}'), keywords: ['sk'], entropy: 3 },
  { id: 'sendgrid-api-token', family: 'chat', description: 'SendGrid API key', regex: prefixed('SG\\.(?:[\\w-]{20,24}\\.[\\w-]{39,50}|[\\w=-]{66})'), keywords: ['sg.'], entropy: 3.5 },
  // Mailgun's private keys are `key-` and 32 lower-case letters and digits (its docs' own example is not hex);
  // the keys it issues now are three hex groups (32-8-8), told apart from other hex by the name Mailgun.
  { id: 'mailgun-private-api-token', family: 'chat', description: 'Mailgun private key', regex: prefixed('key-[a-z0-9]{32}'), keywords: ['key-'], entropy: 3, check: hasDigit },
  { id: 'mailgun-api-key', family: 'chat', description: 'Mailgun API key (32-8-8 hex) near the name Mailgun', regex: prefixed('[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8}'), keywords: ['mailgun'], entropy: 3 },
  { id: 'mailchimp-api-key', family: 'chat', description: 'Mailchimp API key', regex: prefixed('[a-f0-9]{32}-us\\d{1,2}'), keywords: ['-us'], entropy: 3 },


  // Payments.
  { id: 'stripe-access-token', family: 'payments', description: 'Stripe secret or restricted key', regex: prefixed('(?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99}'), keywords: ['sk_test_', 'sk_live_', 'sk_prod_', 'rk_test_', 'rk_live_', 'rk_prod_'], entropy: 3 },
  { id: 'stripe-webhook-secret', family: 'payments', description: 'Stripe webhook signing secret', regex: prefixed('whsec_[a-zA-Z0-9]{32,64}'), keywords: ['whsec_'], entropy: 3.5 },
  { id: 'square-access-token', family: 'payments', description: 'Square access token', regex: prefixed('(?:EAAA|sq0atp-)[\\w-]{22,60}'), keywords: ['eaaa', 'sq0atp-'], entropy: 3 },
  { id: 'square-secret', family: 'payments', description: 'Square application secret', regex: prefixed('sq0csp-[\\w-]{43}'), keywords: ['sq0csp-'], entropy: 3 },
  { id: 'paypal-braintree-access-token', family: 'payments', description: 'PayPal Braintree access token', regex: /access_token\$(?:production|sandbox)\$(?<secret>[0-9a-z]{16}(?:\$[0-9a-f]{32})?)\b/g, keywords: ['access_token$production$', 'access_token$sandbox$'], entropy: 3 },
  { id: 'shopify-access-token', family: 'payments', description: 'Shopify access token', regex: prefixed('shp(?:at|ca|pa)_[a-fA-F0-9]{32}'), keywords: ['shpat_', 'shpca_', 'shppa_'], entropy: 3 },
  // A Stripe PaymentIntent or SetupIntent client secret: the intent's id, `_secret_`, 24 or more characters.
  { id: 'stripe-intent-client-secret', family: 'payments', description: 'Stripe PaymentIntent or SetupIntent client secret', regex: prefixed('(?:pi|seti)_[A-Za-z0-9]{24}_secret_[A-Za-z0-9]{24,32}'), keywords: ['_secret_'], entropy: 3.5 },
  // A Plaid item's access token: environment, then a UUID.
  { id: 'plaid-access-token', family: 'payments', description: 'Plaid access token', regex: prefixed('access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'), keywords: ['access-sandbox-', 'access-development-', 'access-production-'], entropy: 3 },
  { id: 'shopify-shared-secret', family: 'payments', description: 'Shopify shared secret', regex: prefixed('shpss_[a-fA-F0-9]{32}'), keywords: ['shpss_'], entropy: 3 },


  { id: 'easypost-api-token', family: 'payments', description: 'EasyPost API key', regex: prefixed('EZ[AT]K[a-zA-Z0-9]{54}'), keywords: ['ezak', 'eztk'], entropy: 3.5 },
  { id: 'mercadopago-access-token', family: 'payments', description: 'Mercado Pago access token', regex: prefixed('APP_USR-\\d{16}-\\d{6}-[a-f0-9]{32}(?:__[A-Z]{2}_[A-Z]{2}__)?-\\d{6,12}'), keywords: ['app_usr-'], entropy: 3 },
  { id: 'intra42-client-secret', family: 'dev-tooling', description: '42 intra client secret', regex: prefixed('s-s4t2(?:ud|af)-[a-f0-9]{64}'), keywords: ['s-s4t2'], entropy: 3 },
  { id: 'adobe-client-secret', family: 'dev-tooling', description: 'Adobe client secret', regex: prefixed('p8e-[a-zA-Z0-9]{32}'), keywords: ['p8e-'], entropy: 3 },
  { id: 'facebook-access-token', family: 'chat', description: 'Facebook app access token (app id | secret)', regex: /\b(?<secret>\d{15,16}(?:\\?\||%7C)[0-9A-Za-z_-]{27,40})(?![\w-])/g, keywords: ['facebook', 'fb_'], entropy: 3 },
  { id: 'facebook-page-access-token', family: 'chat', description: 'Facebook user or page access token', regex: prefixed('EAA[BCGIM][A-Za-z0-9]{100,400}'), keywords: ['eaab', 'eaac', 'eaag', 'eaai', 'eaam'], entropy: 4 },
  { id: 'flyio-macaroon-token', family: 'cloud', description: 'Fly.io macaroon token', regex: /\b(?<secret>fm[12][ar]?_[A-Za-z0-9+/]{100,1500}={0,3})(?![A-Za-z0-9+/=])/g, keywords: ['fm1', 'fm2_'], entropy: 4 },
  { id: 'launchdarkly-key', family: 'dev-tooling', description: 'LaunchDarkly API, SDK or mobile key', regex: prefixed('(?:api|sdk|mob)-[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{12}'), keywords: ['api-', 'sdk-', 'mob-'], entropy: 3.3 },
  { id: 'sidekiq-secret', family: 'registry', description: 'Sidekiq Enterprise gem credentials', regex: /BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM["']?[ \t]{0,4}[:=][ \t]{0,4}["']?(?<secret>[a-f0-9]{8}:[a-f0-9]{8})\b/gi, keywords: ['__contribsys__com'], entropy: 2 },
  // Package registries.
  { id: 'npm-access-token', family: 'registry', description: 'npm access token', regex: prefixed('npm_[a-zA-Z0-9]{36}'), keywords: ['npm_'], entropy: 3, certain: hasCrc32Suffix },
  { id: 'pypi-upload-token', family: 'registry', description: 'PyPI upload token', regex: prefixed('pypi-AgEIcHlwaS5vcmc[\\w-]{50,1000}'), keywords: ['pypi-ageichlwas5vcmc'], entropy: 3, certain: isPypiMacaroon },
  { id: 'rubygems-api-token', family: 'registry', description: 'RubyGems API key', regex: prefixed('rubygems_[a-f0-9]{48}'), keywords: ['rubygems_'], entropy: 3 },
  { id: 'nuget-api-key', family: 'registry', description: 'NuGet API key', regex: prefixed('oy2[a-z0-9]{43}'), keywords: ['oy2'], entropy: 3.5 },
  { id: 'dockerhub-pat', family: 'registry', description: 'Docker Hub personal or organization access token', regex: prefixed('dckr_(?:pat_[\\w-]{27}|oat_[\\w-]{32})'), keywords: ['dckr_pat_', 'dckr_oat_'], entropy: 3 },
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
  { id: 'new-relic-user-api-key', family: 'observability', description: 'New Relic user API key', regex: prefixed('NRAK-[A-Z0-9]{27}', 'gi'), keywords: ['nrak-'], entropy: 3 },
  { id: 'new-relic-insert-key', family: 'observability', description: 'New Relic insert key', regex: prefixed('NRII-[\\w-]{32}'), keywords: ['nrii-'], entropy: 3 },
  { id: 'new-relic-browser-api-token', family: 'observability', description: 'New Relic browser token', regex: prefixed('NRJS-[a-f0-9]{19}'), keywords: ['nrjs-'], entropy: 3 },
  { id: 'new-relic-license-key', family: 'observability', description: 'New Relic license key', regex: prefixed('[a-f0-9]{36}NRAL'), keywords: ['nral'], entropy: 3 },
  { id: 'sentry-user-token', family: 'observability', description: 'Sentry user auth token', regex: prefixed('sntryu_[a-f0-9]{64}'), keywords: ['sntryu_'], entropy: 3 },
  { id: 'sentry-org-token', family: 'observability', description: 'Sentry organization token', regex: /\b(?<secret>sntrys_eyJpYXQiO[A-Za-z0-9+/]{10,300}={0,2}_[A-Za-z0-9+/]{43})(?![A-Za-z0-9+/])/g, keywords: ['sntrys_'], entropy: 3.5 },
  { id: 'sentry-dsn', family: 'observability', description: 'Sentry DSN key', regex: /https?:\/\/(?<secret>[a-f0-9]{32})(?::[a-f0-9]{32})?@(?:[\w-]{1,63}\.){0,6}(?:sentry|ingest)[\w.-]{0,100}(?::\d{1,5})?\/\d{1,12}/g, keywords: ['sentry', 'ingest'], entropy: 3 },
  { id: 'grafana-cloud-api-token', family: 'observability', description: 'Grafana Cloud token', regex: /\b(?<secret>glc_[A-Za-z0-9+/]{32,400}={0,2})(?![A-Za-z0-9+/=])/g, keywords: ['glc_'], entropy: 3.5 },
  { id: 'grafana-service-account-token', family: 'observability', description: 'Grafana service-account token', regex: prefixed('glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}'), keywords: ['glsa_'], entropy: 3.5 },
  { id: 'grafana-api-key', family: 'observability', description: 'Grafana API key', regex: /\b(?<secret>eyJrIjoi[A-Za-z0-9]{70,400}={0,2})(?![A-Za-z0-9=])/g, keywords: ['eyjrijoi'], entropy: 3.5 },
  { id: 'sumologic-access-id', family: 'observability', description: 'Sumo Logic access id next to its name', regex: keyed('sumo', 'su[a-zA-Z0-9]{12}'), keywords: ['sumo'], entropy: 3, check: sumoAccessId },
  { id: 'sumologic-access-token', family: 'observability', description: 'Sumo Logic access key next to its name', regex: keyed('sumo', '[a-zA-Z0-9]{64}'), keywords: ['sumo'], entropy: 3.5, check: checkVendorKey },
  { id: 'dynatrace-api-token', family: 'observability', description: 'Dynatrace API token', regex: prefixed('dt0c01\\.[A-Z0-9]{24}\\.[A-Z0-9]{64}', 'gi'), keywords: ['dt0c01.'], entropy: 3.5 },
  { id: 'snyk-api-token', family: 'dev-tooling', description: 'Snyk API token next to its name', regex: keyed('snyk', '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'), keywords: ['snyk'], entropy: 3, check: checkVendorKey },
  { id: 'sonar-api-token', family: 'dev-tooling', description: 'SonarQube token', regex: prefixed('sq[pua]_[a-f0-9]{40}'), keywords: ['sqp_', 'squ_', 'sqa_'], entropy: 3 },
  { id: 'sonar-keyed-token', family: 'dev-tooling', description: 'SonarCloud token next to its name', regex: keyed('sonar', '[a-f0-9]{40}'), keywords: ['sonar'], entropy: 3, check: checkVendorKey },
  { id: 'notion-api-token', family: 'dev-tooling', description: 'Notion integration token', regex: prefixed('ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43}'), keywords: ['ntn_', 'secret_'], entropy: 3.5 },
  { id: 'langsmith-api-key', family: 'ai', description: 'LangSmith API key', regex: prefixed('lsv2_(?:pt|sk)_[a-z0-9]{32}_[a-z0-9]{10}', 'gi'), keywords: ['lsv2_'], entropy: 3 },
  { id: 'dotenv-private-key', family: 'private-key', description: 'dotenvx private decryption key', regex: keyed('dotenv[_.-]?private[_.-]?key', '[a-f0-9]{64}'), keywords: ['dotenv'], entropy: 3 },
  { id: 'databricks-api-token', family: 'dev-tooling', description: 'Databricks API token', regex: prefixed('dapi[a-f0-9]{32}(?:-\\d)?'), keywords: ['dapi'], entropy: 3 },
  { id: 'pulumi-api-token', family: 'dev-tooling', description: 'Pulumi API token', regex: prefixed('pul-[a-f0-9]{40}'), keywords: ['pul-'], entropy: 3 },
  { id: 'postman-api-token', family: 'dev-tooling', description: 'Postman API key', regex: prefixed('PMAK-[a-f0-9]{24}-[a-f0-9]{34}', 'gi'), keywords: ['pmak-'], entropy: 3 },
  // Doppler's personal, service, CLI, service-account, SCIM and audit tokens: `dp.<kind>.` and 40-44 characters.
  { id: 'doppler-api-token', family: 'dev-tooling', description: 'Doppler token', regex: prefixed('dp\\.(?:pt|st|ct|sa|scim|audit)\\.[a-zA-Z0-9]{40,44}'), keywords: ['dp.pt.', 'dp.st.', 'dp.ct.', 'dp.sa.', 'dp.scim.', 'dp.audit.'], entropy: 3.5 },
  { id: 'planetscale-token', family: 'dev-tooling', description: 'PlanetScale service token, password or OAuth token', regex: prefixed('pscale_(?:tkn|pw|oauth)_[\\w=.-]{32,64}'), keywords: ['pscale_'], entropy: 3.5 },
  // Airtable personal access tokens: `pat`, a 14-character id, a dot, 64 hex digits.
  { id: 'airtable-personal-access-token', family: 'dev-tooling', description: 'Airtable personal access token', regex: prefixed('pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}'), keywords: ['pat'], entropy: 3.5 },
  { id: 'linear-api-key', family: 'dev-tooling', description: 'Linear API key', regex: prefixed('lin_api_[a-zA-Z0-9]{40}'), keywords: ['lin_api_'], entropy: 3.5 },
  { id: 'age-secret-key', family: 'dev-tooling', description: 'age encryption secret key', regex: /\b(?<secret>AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})\b/g, keywords: ['age-secret-key-1'], entropy: 3 },

];
