#!/bin/sh
# Writes deploy/nginx/lottery.conf.template to stdout with this deployment's values, taken from
# the environment (docs/operations.md, "The reverse proxy"):
#
#   LOTTERY_SERVER_NAME=games.example.com LOTTERY_HTTPS_LISTEN=443 LOTTERY_HTTP_LISTEN=80 \
#   LOTTERY_CERTIFICATE=/etc/ssl/games.pem LOTTERY_CERTIFICATE_KEY=/etc/ssl/private/games.key \
#   LOTTERY_PROCESS_1=10.0.0.11:2567 LOTTERY_PROCESS_2=10.0.0.12:2567 LOTTERY_PROCESS_3=10.0.0.13:2567 \
#     deploy/nginx/render.sh > /etc/nginx/conf.d/lottery.conf && nginx -t && nginx -s reload
#
# envsubst (Debian's gettext-base) replaces only these names: nginx's own $variables stay.
set -eu
names='LOTTERY_SERVER_NAME LOTTERY_HTTPS_LISTEN LOTTERY_HTTP_LISTEN LOTTERY_CERTIFICATE LOTTERY_CERTIFICATE_KEY LOTTERY_PROCESS_1 LOTTERY_PROCESS_2 LOTTERY_PROCESS_3'
list=''
for name in $names; do
  eval "value=\${$name:-}"
  if [ -z "$value" ]; then
    echo "render.sh: set $name (docs/operations.md, \"The reverse proxy\")" >&2
    exit 2
  fi
  list="$list \${$name}"
done
rendered=$(envsubst "$list" < "$(dirname "$0")/lottery.conf.template")
case $rendered in
  *'${LOTTERY_'*) echo 'render.sh: the template uses a LOTTERY_ name this script does not list' >&2; exit 2 ;;
esac
printf '%s\n' "$rendered"
